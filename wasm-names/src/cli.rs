//! What the build step's bins (`short-names`, `drop-classes`) share: reading and writing the files they
//! change in place, each error naming its file, and how they end.

use std::process::ExitCode;

use super::Error;

/// The bytes of the file at `path`.
pub fn read_bytes(path: &str) -> Result<Vec<u8>, Error> {
    std::fs::read(path).map_err(|e| Error(format!("{path}: {e}")))
}

/// The text of the file at `path` (UTF-8).
pub fn read_text(path: &str) -> Result<String, Error> {
    String::from_utf8(read_bytes(path)?).map_err(|_| Error(format!("{path}: not UTF-8")))
}

/// The text of each file of `paths`.
pub fn read_texts(paths: &[String]) -> Result<Vec<String>, Error> {
    paths.iter().map(|p| read_text(p)).collect()
}

/// Writes `bytes` to the file at `path`.
pub fn write_file(path: &str, bytes: &[u8]) -> Result<(), Error> {
    std::fs::write(path, bytes).map_err(|e| Error(format!("{path}: {e}")))
}

/// Says `outcome` on stderr after `[bin]`, and exits with success or failure by it.
pub fn finish(bin: &str, outcome: Result<String, Error>) -> ExitCode {
    match outcome {
        Ok(summary) => {
            eprintln!("[{bin}] {summary}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("[{bin}] {e}");
            ExitCode::FAILURE
        }
    }
}
