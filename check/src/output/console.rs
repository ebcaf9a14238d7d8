//! stdout and stderr for the check: result lines on stdout, notes and progress on stderr, each line
//! redacted and flushed at once (a CI log shows it as it happens). A closed stream is ignored.

use std::io::Write;

use crate::redact::Redactor;

/// The program name that starts every stderr line.
pub const PROGRAM: &str = "streamscope-check";

/// Where the check writes.
pub struct Console<'a> {
    stdout: &'a mut (dyn Write + Send),
    stderr: &'a mut (dyn Write + Send),
    redactor: Redactor,
}

impl<'a> Console<'a> {
    /// A console over the two streams, redacting with `redactor`.
    pub fn new(stdout: &'a mut (dyn Write + Send), stderr: &'a mut (dyn Write + Send), redactor: Redactor) -> Self {
        Console { stdout, stderr, redactor }
    }

    /// Replaces the redactor (once the targets' URLs are known).
    pub fn set_redactor(&mut self, redactor: Redactor) {
        self.redactor = redactor;
    }

    /// The redactor in use.
    pub fn redactor(&self) -> &Redactor {
        &self.redactor
    }

    /// A line on stdout.
    pub fn out(&mut self, text: &str) {
        let _ = writeln!(self.stdout, "{}", self.redactor.text(text));
        let _ = self.stdout.flush();
    }

    /// A `streamscope-check: …` line on stderr.
    pub fn note(&mut self, text: &str) {
        let _ = writeln!(self.stderr, "{PROGRAM}: {}", self.redactor.text(text));
        let _ = self.stderr.flush();
    }
}
