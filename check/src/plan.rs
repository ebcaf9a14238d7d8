//! The targets of a run, from the command line alone or from `--targets FILE` with the command line's
//! fields as defaults under each entry.

use crate::args::Options;
use crate::target::Target;
use crate::targets_file;

/// Every target to check, in order; the error says which entry and field is wrong.
pub fn targets(options: &Options) -> Result<Vec<Target>, String> {
    let Some(path) = &options.targets_file else {
        return Ok(vec![options.template.clone().resolve(0)?]);
    };
    let specs = targets_file::read(path)?;
    specs
        .into_iter()
        .enumerate()
        .map(|(i, spec)| {
            spec.over(&options.template).resolve(i).map_err(|err| format!("--targets {}: target {}: {err}", path.display(), i + 1))
        })
        .collect()
}
