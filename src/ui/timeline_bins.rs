//! The timeline's data, aggregated per column as it arrives: a fixed number of bins over a span that
//! doubles when the stream outlasts it (two neighbouring bins merge). Adding a read or an event is O(1),
//! growing the span is O(bins), and drawing is O(bins) whatever the stream's length: a 100,000-event
//! answer costs the timeline what a 100-event one does.

/// Bins across the span: about one per horizontal pixel of the chart.
pub const BINS: usize = 512;

/// The first span covered, ms (doubled as needed). Small, so that the bins are never coarser than the
/// run needs: a run of T ms ends with bins of at most 2T / [`BINS`], a few pixels of its chart, however
/// short it was (an error answered in 4 ms is drawn as finely as a minute-long stream).
const FIRST_SPAN_MS: f64 = 16.0;

/// What arrived within one bin.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Bin {
    /// Reads that resolved in this bin.
    pub reads: u32,
    /// The largest of those reads, bytes.
    pub max_read_bytes: u32,
    /// Content events.
    pub content: u32,
    /// Reasoning events.
    pub reasoning: u32,
    /// When the bin's first read came, ms (0 while it has none): where the chart draws the bin's reads,
    /// exact for the first of each column rather than at the bin's start.
    pub first_read_ms: f64,
    /// When the bin's first content event came, ms (0 while it has none): where the line steps up.
    pub first_content_ms: f64,
    /// When the bin's first reasoning event came, ms (0 while it has none).
    pub first_reasoning_ms: f64,
}

/// `first_ms` with `at_ms` counted in: the earlier of the two, or `at_ms` when the bin had none (`count`).
fn earliest(count: u32, first_ms: f64, at_ms: f64) -> f64 {
    if count == 0 { at_ms } else { first_ms.min(at_ms) }
}

/// Reads and events counted per time bin, from 0 to [`TimelineBins::span_ms`].
#[derive(Debug, Clone, PartialEq)]
pub struct TimelineBins {
    span_ms: f64,
    bins: Vec<Bin>,
    /// The largest read so far, bytes.
    pub max_read_bytes: usize,
    /// Content events so far.
    pub content_total: usize,
    /// Reasoning events so far.
    pub reasoning_total: usize,
    /// Reads so far.
    pub read_total: usize,
}

impl Default for TimelineBins {
    fn default() -> Self {
        TimelineBins {
            span_ms: FIRST_SPAN_MS,
            bins: vec![Bin::default(); BINS],
            max_read_bytes: 0,
            content_total: 0,
            reasoning_total: 0,
            read_total: 0,
        }
    }
}

impl TimelineBins {
    /// The time the bins cover, ms from `fetch()` (it doubles as the stream outlasts it).
    pub fn span_ms(&self) -> f64 {
        self.span_ms
    }

    /// The bins, in time order.
    pub fn bins(&self) -> &[Bin] {
        &self.bins
    }

    /// The bin `at_ms` falls in (the last one past the span).
    pub fn index_of(&self, at_ms: f64) -> usize {
        let at_ms = if at_ms.is_finite() { at_ms.max(0.0) } else { 0.0 };
        (((at_ms / self.span_ms) * BINS as f64) as usize).min(BINS - 1)
    }

    fn bin_mut(&mut self, at_ms: f64) -> &mut Bin {
        let at_ms = if at_ms.is_finite() { at_ms.max(0.0) } else { 0.0 };
        while at_ms >= self.span_ms {
            self.double();
        }
        let i = self.index_of(at_ms);
        &mut self.bins[i]
    }

    fn double(&mut self) {
        for i in 0..BINS / 2 {
            let (a, b) = (self.bins[2 * i], self.bins[2 * i + 1]);
            self.bins[i] = Bin {
                reads: a.reads + b.reads,
                max_read_bytes: a.max_read_bytes.max(b.max_read_bytes),
                content: a.content + b.content,
                reasoning: a.reasoning + b.reasoning,
                first_read_ms: if a.reads > 0 { a.first_read_ms } else { b.first_read_ms },
                first_content_ms: if a.content > 0 { a.first_content_ms } else { b.first_content_ms },
                first_reasoning_ms: if a.reasoning > 0 { a.first_reasoning_ms } else { b.first_reasoning_ms },
            };
        }
        self.bins[BINS / 2..].fill(Bin::default());
        self.span_ms *= 2.0;
    }

    /// Counts a read.
    pub fn add_read(&mut self, at_ms: f64, len_bytes: usize) {
        self.read_total += 1;
        self.max_read_bytes = self.max_read_bytes.max(len_bytes);
        let bin = self.bin_mut(at_ms);
        bin.first_read_ms = earliest(bin.reads, bin.first_read_ms, at_ms);
        bin.reads += 1;
        bin.max_read_bytes = bin.max_read_bytes.max(len_bytes.min(u32::MAX as usize) as u32);
    }

    /// Counts a content event.
    pub fn add_content(&mut self, at_ms: f64) {
        self.content_total += 1;
        let bin = self.bin_mut(at_ms);
        bin.first_content_ms = earliest(bin.content, bin.first_content_ms, at_ms);
        bin.content += 1;
    }

    /// Counts a reasoning event.
    pub fn add_reasoning(&mut self, at_ms: f64) {
        self.reasoning_total += 1;
        let bin = self.bin_mut(at_ms);
        bin.first_reasoning_ms = earliest(bin.reasoning, bin.first_reasoning_ms, at_ms);
        bin.reasoning += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn a_long_stream_keeps_every_count_in_a_fixed_number_of_bins() {
        let mut bins = TimelineBins::default();
        for i in 0..100_000 {
            let at_ms = i as f64 * 0.5;
            bins.add_read(at_ms, 100 + i % 7);
            bins.add_content(at_ms);
        }
        assert_eq!(bins.bins().len(), BINS);
        assert!(bins.span_ms() > 49_999.5);
        assert_eq!(bins.bins().iter().map(|b| b.reads as usize).sum::<usize>(), 100_000);
        assert_eq!(bins.bins().iter().map(|b| b.content as usize).sum::<usize>(), 100_000);
        assert_eq!(bins.max_read_bytes, 106);
    }

    #[wasm_bindgen_test]
    fn each_bin_keeps_when_its_first_read_and_events_came_through_doublings() {
        let mut bins = TimelineBins::default();
        bins.add_read(3.95, 10);
        bins.add_reasoning(3.97);
        bins.add_read(3.9, 20);
        bins.add_content(3.96);
        bins.add_reasoning(3.91);
        // Past the span: 16 ms doubles to 1,024 (bins of 2 ms), and 3.9-3.97 share one bin.
        bins.add_read(1000.0, 5);
        let bin = bins.bins()[bins.index_of(3.9)];
        assert_eq!((bin.reads, bin.content, bin.reasoning), (2, 1, 2));
        assert_eq!((bin.first_read_ms, bin.first_content_ms, bin.first_reasoning_ms), (3.9, 3.96, 3.91));
        assert_eq!(bins.bins()[bins.index_of(1000.0)].first_read_ms, 1000.0);
    }
}
