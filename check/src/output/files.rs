//! `--out DIR`: each target's full JSON report as `DIR/<name>.json` (from the target's name, else
//! `target-<n>`; a name used twice gets `-<n>` added), pretty-printed and redacted.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::redact::Redactor;
use crate::target::Target;

/// Picks each target's report file in `dir`, unique within the run.
pub fn report_paths(dir: &Path, targets: &[Target]) -> Vec<PathBuf> {
    let mut used: HashSet<String> = HashSet::new();
    targets
        .iter()
        .map(|t| {
            let base = t.file_stem();
            let (mut stem, mut n) = (base.clone(), t.index + 1);
            while !used.insert(stem.clone()) {
                stem = format!("{base}-{n}");
                n += 1;
            }
            dir.join(format!("{stem}.json"))
        })
        .collect()
}

/// Writes `report` to `path`, redacted.
pub fn write_report(path: &Path, report: &Value, redactor: &Redactor) -> Result<(), String> {
    let text = serde_json::to_string_pretty(report).map_err(|err| format!("cannot format the report: {err}"))?;
    std::fs::write(path, redactor.text(&text) + "\n").map_err(|err| format!("cannot write {}: {err}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::TargetSpec;

    #[test]
    fn names_are_unique() {
        let t = |name: Option<&str>, index: usize| {
            TargetSpec { url: Some("http://h/".into()), name: name.map(String::from), ..TargetSpec::default() }.resolve(index).unwrap()
        };
        let paths = report_paths(Path::new("out"), &[t(Some("lab"), 0), t(Some("lab"), 1), t(None, 2)]);
        assert_eq!(paths, vec![PathBuf::from("out/lab.json"), PathBuf::from("out/lab-2.json"), PathBuf::from("out/target-3.json")]);
    }
}
