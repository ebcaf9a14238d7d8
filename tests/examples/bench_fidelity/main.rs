//! Fidelity benchmarks, run through `scripts/bench-fidelity.sh` (which builds the page and records the
//! machine): `cargo run --release -p streamscope-e2e --example bench_fidelity -- [ARGS]`.
//!
//! - `bench_fidelity [case-name ...]` ([`cases`], issue 8): does the page cause what it measures? The
//!   page against the socket peer and a bare `fetch` loop, per case.
//! - `bench_fidelity --peers [rate-ms ... | nginx ...]` ([`peers`], issue 13): the page against the
//!   raw-socket peer and curl on the same streams, with per-event arrival errors, `BENCH_REPEATS` times.

mod cases;
mod peers;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.split_first() {
        Some((first, rest)) if first == "--peers" => peers::main(rest.to_vec()).await,
        _ => cases::main(args).await,
    }
}
