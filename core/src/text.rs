//! How numbers read in words: THE formatter for times and sizes (findings, Markdown, compare sentences
//! and the page all call these), plus small text helpers.
//!
//! Times keep about three significant digits: `5.2 ms` and `12.3 ms` below 100 ms, `850 ms` below 1 s,
//! `3.20 s` below 10 s, `12.3 s` below 100 s, `125 s` above. Sizes: `812 B`, `4.0 KiB`, `1.00 MiB`.

use crate::fixed::fixed;

/// `impl Serialize` and `impl Deserialize` for fieldless enums written as their name (`$name_of`) and
/// read back by it ([`deserialize_by_name!`]): one string table per enum, not two more compiled by
/// serde's derives.
macro_rules! serde_by_name {
    ($($t:ty => $name_of:ident),* $(,)?) => { $(
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.$name_of())
            }
        }

        deserialize_by_name!($t => $name_of);
    )* };
}

/// `impl Deserialize` for a fieldless enum read by its name: the one of its `ALL` whose `$name_of` it is.
/// Serde's derive would compile one more string table (matched as text, and again as bytes) per enum.
macro_rules! deserialize_by_name {
    ($($t:ty => $name_of:ident),* $(,)?) => { $(
        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let name = <String as serde::Deserialize>::deserialize(deserializer)?;
                <$t>::ALL.into_iter().find(|v| v.$name_of() == name).ok_or_else(|| {
                    <D::Error as serde::de::Error>::custom($crate::text::unknown_name(stringify!($t), &name))
                })
            }
        }
    )* };
}

/// For a fieldless enum whose derived `Serialize` writes these names: `ALL`, `as_str` (the names) and
/// `impl Deserialize` by name ([`deserialize_by_name!`]), one table instead of serde's derived reader's.
macro_rules! read_by_name {
    ($t:ident { $($variant:ident = $name:literal),* $(,)? }) => {
        impl $t {
            /// Every value, for reading one back by its name.
            pub const ALL: [$t; [$($name),*].len()] = [$($t::$variant),*];

            /// The name it is written as (serde's derive writes it; this reads it back).
            pub fn as_str(self) -> &'static str {
                match self {
                    $($t::$variant => $name,)*
                }
            }
        }

        deserialize_by_name!($t => as_str);
    };
}

/// Why a name read back is refused: ``unknown Dialect `x` ``.
pub(crate) fn unknown_name(what: &str, name: &str) -> String {
    format!("unknown {what} `{name}`")
}

/// Declares an enum of known snake_case names plus `Other(String)`, serialised as the bare string (so an
/// unknown name read back from an older or newer report is kept, not refused).
macro_rules! string_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )*
            /// Any other name, kept as it was read.
            Other(String),
        }

        impl $name {
            /// The name as serialised.
            pub fn as_str(&self) -> &str {
                match self {
                    $( $name::$variant => $text, )*
                    $name::Other(s) => s.as_str(),
                }
            }

            /// The value for a name; an unknown name is kept as `Other`.
            pub fn from_name(name: &str) -> Self {
                match name {
                    $( $text => $name::$variant, )*
                    other => $name::Other(other.to_string()),
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let name = <String as serde::Deserialize>::deserialize(d)?;
                Ok($name::from_name(&name))
            }
        }
    };
}

/// A duration in ms for people: `5.2 ms`, `12.3 ms`, `850 ms`, `3.20 s`, `12.3 s`, `125 s`; `n/a` when
/// not finite.
pub fn ms(ms: f64) -> String {
    let a = ms.abs();
    if !ms.is_finite() {
        "n/a".to_string()
    } else if a < 99.95 {
        format!("{} ms", fixed(ms, 1))
    } else if a < 999.5 {
        format!("{} ms", fixed(ms, 0))
    } else if a < 9_995.0 {
        format!("{} s", fixed(ms / 1000.0, 2))
    } else if a < 99_950.0 {
        format!("{} s", fixed(ms / 1000.0, 1))
    } else {
        format!("{} s", fixed(ms / 1000.0, 0))
    }
}

/// [`ms`] of a value that may be missing, with `none` in its place.
pub fn ms_or(value: Option<f64>, none: &str) -> String {
    value.map_or_else(|| none.to_string(), ms)
}

/// A size in bytes for people: `812 B`, `4.0 KiB`, `1.00 MiB`.
pub fn bytes(bytes: f64) -> String {
    const KIB: f64 = 1024.0;
    if bytes.abs() >= KIB * KIB {
        format!("{} MiB", fixed(bytes / (KIB * KIB), 2))
    } else if bytes.abs() >= KIB {
        format!("{} KiB", fixed(bytes / KIB, 1))
    } else {
        format!("{} B", fixed(bytes, 0))
    }
}

/// `1 read`, `2 reads`: a count with the right noun.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Cuts a string to at most `max_chars` characters.
pub fn truncate_chars(s: &str, max_chars: usize) -> String {
    match s.char_indices().nth(max_chars) {
        Some((i, _)) => s[..i].to_string(),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each of `values` is written by serde's derive as its name in `names`, which `as_str` says too, and
    /// read back by it (`read_by_name!`); an unknown name is refused.
    fn reads_back<T>(values: &[T], names: &[&str], as_str: fn(T) -> &'static str)
    where
        T: Copy + PartialEq + std::fmt::Debug + serde::Serialize + serde::de::DeserializeOwned,
    {
        assert_eq!(values.len(), names.len());
        for (&value, name) in values.iter().zip(names) {
            let written = serde_json::to_string(&value).unwrap();
            assert_eq!(written, format!("\"{name}\""));
            assert_eq!(as_str(value), *name);
            assert_eq!(serde_json::from_str::<T>(&written).unwrap(), value);
        }
        assert!(serde_json::from_str::<T>("\"nonsense\"").is_err());
    }

    #[test]
    fn enums_read_by_name_are_read_back_by_the_names_serde_writes() {
        use crate::dialect::content_filter::FilterMode;
        use crate::dialect::error_body::ErrorShape;
        use crate::findings::Severity;
        use crate::measure::cache::CacheSource;
        use crate::measure::metrics::TokenCountSource;
        use crate::report::compare::Subject;
        use crate::report::export::ImportSource;
        use crate::trace::MeasuredIn;
        reads_back(&CacheSource::ALL, &["deepseek", "openai", "openai-responses", "anthropic", "gemini"], CacheSource::as_str);
        reads_back(&ErrorShape::ALL, &["openai", "anthropic", "other_json", "html", "text", "empty"], ErrorShape::as_str);
        reads_back(&TokenCountSource::ALL, &["usage", "usage_with_reasoning", "events"], TokenCountSource::as_str);
        reads_back(&FilterMode::ALL, &["batched", "asynchronous", "text_unmarked"], FilterMode::as_str);
        reads_back(&Severity::ALL, &["info", "warning", "error"], Severity::as_str);
        reads_back(&MeasuredIn::ALL, &["worker", "main-thread"], MeasuredIn::as_str);
        reads_back(&Subject::ALL, &["path", "model"], Subject::as_str);
        reads_back(&ImportSource::ALL, &["traces", "report"], ImportSource::as_str);
    }

    #[test]
    fn times_keep_three_significant_digits() {
        assert_eq!(ms(5.25), "5.2 ms");
        assert_eq!(ms(12.0), "12.0 ms");
        assert_eq!(ms(99.96), "100 ms");
        assert_eq!(ms(850.4), "850 ms");
        assert_eq!(ms(999.7), "1.00 s");
        assert_eq!(ms(3200.0), "3.20 s");
        assert_eq!(ms(12_000.0), "12.0 s");
        assert_eq!(ms(125_000.0), "125 s");
        assert_eq!(ms(-340.0), "-340 ms");
        assert_eq!(ms(f64::NAN), "n/a");
        assert_eq!(ms_or(None, "–"), "–");
    }

    #[test]
    fn sizes_in_binary_units() {
        assert_eq!(bytes(812.0), "812 B");
        assert_eq!(bytes(1010.0), "1010 B");
        assert_eq!(bytes(4096.0), "4.0 KiB");
        assert_eq!(bytes(1024.0 * 1024.0), "1.00 MiB");
    }

    #[test]
    fn plural_and_truncate() {
        assert_eq!(plural(1, "read", "reads"), "1 read");
        assert_eq!(plural(2, "read", "reads"), "2 reads");
        assert_eq!(truncate_chars("héllo", 2), "hé");
    }
}
