//! `streamscope-check`: see `--help` and the crate docs; everything is in the library.

fn main() -> std::process::ExitCode {
    streamscope_check::run_process()
}
