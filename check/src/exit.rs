//! The check's exit codes: what a CI job branches on.
//!
//! With several targets the worst one decides: any target that could not run makes it 2, else any
//! failed target makes it 1.

/// How a check ended, as the process's exit code (ordered from best to worst).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Exit {
    /// 0: every target passed its verdict and thresholds.
    Pass,
    /// 1: the check ran and a verdict or a threshold failed.
    Fail,
    /// 2: the check could not run (bad arguments, no browser or WebDriver, the page did not load, no
    /// report within the time-out).
    CouldNotRun,
}

impl Exit {
    /// The process exit code.
    pub fn code(self) -> u8 {
        match self {
            Exit::Pass => 0,
            Exit::Fail => 1,
            Exit::CouldNotRun => 2,
        }
    }

    /// The worse of the two.
    pub fn worst(self, other: Exit) -> Exit {
        self.max(other)
    }
}

impl From<Exit> for std::process::ExitCode {
    fn from(exit: Exit) -> Self {
        std::process::ExitCode::from(exit.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worst_target_decides() {
        assert_eq!(Exit::Pass.worst(Exit::Fail), Exit::Fail);
        assert_eq!(Exit::CouldNotRun.worst(Exit::Fail), Exit::CouldNotRun);
        assert_eq!(Exit::Pass.worst(Exit::Pass), Exit::Pass);
        assert_eq!([Exit::Pass, Exit::Fail, Exit::CouldNotRun].map(Exit::code), [0, 1, 2]);
    }
}
