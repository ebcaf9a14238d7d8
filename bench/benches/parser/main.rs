//! `cargo bench -p streamscope-bench`: core's framing and full analysis against `sse-core`,
//! `sse-stream` and `eventsource-stream` doing the same work, on the generated 32 MiB stream cut into
//! 64 B, 1,500 B and 16 KiB reads (see `streamscope_bench::stream`). Groups `framing-<size>B` and
//! `analysis-<size>B`; throughput in decimal MB/s. Before measuring, every contender's tally (events and
//! bytes) is checked against the generator's, so all of them did the same work.
//!
//! Ten samples, 1 s warm-up and 3 s of measurement per benchmark by default (criterion's own flags,
//! e.g. `-- --measurement-time 10`, override them); about 2 minutes on 2 cores.

mod crates;

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use streamscope_bench::stream::{openai_stream, reads, READ_SIZES_BYTES, SEED, STREAM_BYTES};
use streamscope_bench::work::{core_analysis, core_framing, core_framing_owned, Tally};

fn parser(c: &mut Criterion) {
    let g = openai_stream(STREAM_BYTES, SEED);
    let data_bytes = {
        let text = std::str::from_utf8(&g.bytes).expect("the stream is UTF-8");
        text.split("\n\n").filter_map(|e| e.strip_prefix("data: ")).map(str::len).sum()
    };
    let framed = Tally { events: g.events, bytes: data_bytes };
    let analysed = Tally { events: g.content_events, bytes: g.text_bytes };
    println!(
        "stream: {} bytes, {} events, {} content events, {} bytes of text",
        g.bytes.len(),
        g.events,
        g.content_events,
        g.text_bytes
    );
    for size in READ_SIZES_BYTES {
        let reads = reads(&g.bytes, size);
        let check = |name: &str, got: Tally, want: Tally| assert_eq!(got, want, "{name} with {size} B reads");
        check("core framing", core_framing(&reads), framed);
        check("core framing (owned)", core_framing_owned(&reads), framed);
        check("core analysis", core_analysis(&reads, false), analysed);
        check("core analysis (reference)", core_analysis(&reads, true), analysed);
        for (name, p) in crates::CRATES {
            check(name, crates::framing(p, &reads), framed);
            check(name, crates::content(p, &reads), analysed);
        }

        let mut group = c.benchmark_group(format!("framing-{size}B"));
        group.throughput(Throughput::BytesDecimal(g.bytes.len() as u64));
        group.bench_function("core", |b| b.iter(|| core_framing(black_box(&reads))));
        group.bench_function("core-owned", |b| b.iter(|| core_framing_owned(black_box(&reads))));
        for (name, p) in crates::CRATES {
            group.bench_function(name, |b| b.iter(|| crates::framing(p, black_box(&reads))));
        }
        group.finish();

        let mut group = c.benchmark_group(format!("analysis-{size}B"));
        group.throughput(Throughput::BytesDecimal(g.bytes.len() as u64));
        group.bench_function("core", |b| b.iter(|| core_analysis(black_box(&reads), false)));
        group.bench_function("core-reference", |b| b.iter(|| core_analysis(black_box(&reads), true)));
        for (name, p) in crates::CRATES {
            group.bench_function(format!("{name}+serde_json"), |b| b.iter(|| crates::content(p, black_box(&reads))));
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = parser
}
criterion_main!(benches);
