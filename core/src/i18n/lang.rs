//! The languages streamscope speaks, their tags, and the choice from a browser's language list.

use serde::{Deserialize, Serialize};

/// A language the catalogues cover.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Lang {
    /// English (the default, and the language of the contract's examples).
    #[default]
    #[serde(rename = "en")]
    En,
    /// Simplified Chinese.
    #[serde(rename = "zh-CN")]
    ZhCn,
}

impl Lang {
    /// Every language, in the order the page lists them.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::ZhCn];

    /// The BCP 47 tag: `en`, `zh-CN` (the `lang=` value of the permalink and the report's `lang`).
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::ZhCn => "zh-CN",
        }
    }

    /// The language's name in itself, for the switcher.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::ZhCn => "简体中文",
        }
    }

    /// The language of a tag, case-insensitive: `en`, `en-US`, … are English; `zh`, `zh-CN`, `zh-Hans`,
    /// `zh-SG`, and also `zh-TW` / `zh-HK` (Simplified Chinese reads better to them than English) are
    /// Chinese; anything else is `None`.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let primary = tag.trim().split(['-', '_']).next().unwrap_or("");
        if primary.eq_ignore_ascii_case("en") {
            Some(Lang::En)
        } else if primary.eq_ignore_ascii_case("zh") {
            Some(Lang::ZhCn)
        } else {
            None
        }
    }

    /// The first language of a preference list (`navigator.languages`) that the catalogues cover;
    /// English when none is.
    pub fn negotiate<'a>(preferred: impl IntoIterator<Item = &'a str>) -> Lang {
        preferred.into_iter().find_map(Lang::from_tag).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_round_trip_and_read_regional_variants() {
        for lang in Lang::ALL {
            assert_eq!(Lang::from_tag(lang.tag()), Some(lang));
        }
        assert_eq!(Lang::from_tag("en-GB"), Some(Lang::En));
        assert_eq!(Lang::from_tag("ZH-hans-CN"), Some(Lang::ZhCn));
        assert_eq!(Lang::from_tag("zh_TW"), Some(Lang::ZhCn));
        assert_eq!(Lang::from_tag("fr"), None);
        assert_eq!(Lang::from_tag(""), None);
    }

    #[test]
    fn the_first_covered_language_wins() {
        assert_eq!(Lang::negotiate(["fr-FR", "zh-CN", "en"]), Lang::ZhCn);
        assert_eq!(Lang::negotiate(["de", "en-US", "zh"]), Lang::En);
        assert_eq!(Lang::negotiate(["de"]), Lang::En);
        assert_eq!(Lang::negotiate([]), Lang::En);
    }

    #[test]
    fn serialises_as_its_tag() {
        assert_eq!(serde_json::to_string(&Lang::ZhCn).unwrap(), "\"zh-CN\"");
        assert_eq!(serde_json::from_str::<Lang>("\"en\"").unwrap(), Lang::En);
    }
}
