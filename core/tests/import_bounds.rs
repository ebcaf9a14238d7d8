//! A large import stays bounded: an export of 1,000,000 reads is read, checked and recomputed in linear
//! time, in memory a small multiple of the file's size (measured here with a counting allocator, so
//! this file holds one test: tests running in parallel would share the count).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use streamscope_core::analysis::analyze;
use streamscope_core::i18n::Lang;
use streamscope_core::report::campaign::CampaignReport;
use streamscope_core::report::compare::Side;
use streamscope_core::report::export::{import, Export, ExportedRun, Imported, EXPORT_VERSION};
use streamscope_core::{Report, Trace, TraceEnd};

/// Counts the bytes allocated now and the most ever allocated at once.
struct Counting;

static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(bytes: usize) {
    let now = NOW.fetch_add(bytes, Ordering::Relaxed) + bytes;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        NOW.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // Old and new blocks both exist while the data moves.
        grew(new_size);
        let out = unsafe { System.realloc(ptr, layout, new_size) };
        NOW.fetch_sub(layout.size(), Ordering::Relaxed);
        out
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most bytes allocated at once, beyond what was allocated before, while `f` ran.
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = NOW.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let out = f();
    (out, PEAK.load(Ordering::Relaxed) - base)
}

/// An export of one run of `reads` raw-text reads, one byte each, 1 ms apart, written by hand (as the page
/// writes it) so that building it does not dominate the test.
fn export_text(reads: usize) -> String {
    let small = Trace::from_reads(
        200,
        "text/plain",
        1.0,
        vec![(2.0, "x")],
        TraceEnd::Complete { at_ms: 3.0 },
    );
    let report = CampaignReport::Single(Box::new(Report::from_trace(&small)));
    let head = Export {
        streamscope_export: EXPORT_VERSION,
        lang: Lang::En,
        config: None,
        report,
        runs: vec![ExportedRun {
            side: Side::A,
            group: 0,
            trace: small,
        }],
    };
    let json = serde_json::to_string(&head).unwrap();
    let marker = r#""reads":[{"at_ms":2.0,"bytes":"x"}]"#;
    assert!(json.contains(marker), "{json}");
    let mut many = String::with_capacity(reads * 32);
    many.push_str(r#""reads":["#);
    for i in 0..reads {
        if i > 0 {
            many.push(',');
        }
        many.push_str(&format!(r#"{{"at_ms":{}.0,"bytes":"x"}}"#, 2 + i));
    }
    many.push(']');
    json.replacen(marker, &many, 1).replacen(
        r#""at_ms":3.0"#,
        &format!(r#""at_ms":{}.0"#, reads + 2),
        1,
    )
}

/// Regression: an import went through a `serde_json::Value` tree first (dozens of times the file in
/// memory) and nothing said how long a big trace's recompute may take.
#[test]
fn an_import_of_1_000_000_reads_is_linear_and_bounded_in_memory() {
    // 1,000,000 reads in release; 200,000 in a debug build, where the recompute is ~20 times slower.
    let reads = if cfg!(debug_assertions) {
        200_000
    } else {
        1_000_000
    };
    let text = export_text(reads);
    let started = Instant::now();
    let (imported, import_peak) = peak_of(|| import(&text));
    let Ok(Imported::Export(export)) = imported else {
        panic!("not imported: {:?}", imported.err())
    };
    let trace = &export.runs[0].trace;
    assert_eq!(trace.reads.len(), reads);
    let (report, recompute_peak) = peak_of(|| Report::from_analysis(trace, &analyze(trace)));
    let elapsed = started.elapsed();
    assert_eq!((report.reads, report.content_events), (reads, reads));
    let file = text.len();
    eprintln!("{reads} reads, file {file} B, import peak {import_peak} B, recompute peak {recompute_peak} B, {elapsed:?}");
    assert!(
        import_peak <= 4 * file,
        "import took {import_peak} B for a file of {file} B"
    );
    assert!(
        recompute_peak <= 12 * file,
        "recompute took {recompute_peak} B for a file of {file} B"
    );
    assert!(elapsed.as_secs() < 60, "{elapsed:?}");
}
