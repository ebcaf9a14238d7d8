//! A Markdown summary of a campaign, to paste into a support ticket: the verdict, the numbers and the
//! findings, readable without streamscope.
//!
//! Everything in it that a server, an import or a link could have chosen (finding details that quote
//! error bodies and stream errors, URLs, labels, the compare sentence) is data, not Markdown: text is
//! escaped with [`md_text`] (every character Markdown or HTML could act on is backslash-escaped, line
//! breaks become spaces), and a URL goes in a code span ([`code_span`]), where nothing is a link, an
//! image or HTML. So `![](https://tracker.example/p.png)` in an error body stays visible text and loads
//! nothing in the ticket.

use std::fmt::Write;

use super::campaign::CampaignReport;
use crate::findings::Finding;
use crate::report::Report;
use super::runs::RunsSummary;

fn ms(v: Option<f64>) -> String {
    crate::text::ms_or(v, "–")
}

/// `text` as literal Markdown text: the ASCII punctuation that Markdown, GFM or inline HTML could act on
/// in the middle of a line (emphasis, code, links, images, HTML, entities, tables, strikethrough) is
/// backslash-escaped, and line breaks (and other control characters) become spaces, so nothing starts a
/// line (no heading, list or block). A bare `https://` address may still be shown as a link by GFM: its
/// text is the address, and nothing is loaded.
pub fn md_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for c in text.chars() {
        match c {
            '\\' | '`' | '*' | '_' | '{' | '}' | '[' | ']' | '(' | ')' | '<' | '>' | '!' | '|' | '~' | '&' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// `text` as a Markdown code span: fenced with one backtick more than its longest run of backticks,
/// padded when it starts or ends with one, line breaks as spaces.
pub fn code_span(text: &str) -> String {
    let flat: String = text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let longest = flat.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if flat.starts_with('`') || flat.ends_with('`') || flat.is_empty() { " " } else { "" };
    format!("{fence}{pad}{flat}{pad}{fence}")
}

fn findings_list(out: &mut String, findings: &[Finding]) {
    for f in findings {
        let _ = write!(out, "- {} **{}**: {}", code_span(f.code.as_str()), md_text(&f.title), md_text(&f.detail));
        if let Some(fix) = &f.fix {
            let _ = write!(out, " Fix: {}", md_text(fix));
        }
        out.push('\n');
    }
}

fn single(out: &mut String, r: &Report) {
    let request = format!("{} {}", r.request.method, crate::secrets::redact_url(&r.request.url));
    let _ = writeln!(out, "**Verdict: {}** ({})\n", r.verdict.as_str(), code_span(&request));
    out.push_str("| metric | value |\n|---|---|\n");
    let tpot_n = r.tpot_n.map_or(String::new(), |n| format!(" (N={n})"));
    for (name, value) in [
        ("headers", ms(r.headers_ms)),
        ("TTFB", ms(r.ttfb_ms)),
        ("TTFT", ms(r.ttft_ms)),
        ("TPOT", format!("{}{tpot_n}", ms(r.tpot_ms))),
        ("ITL p50 / p90 / max", r.itl_ms.map_or("–".into(), |p| format!("{} / {} / {}", ms(Some(p.p50)), ms(Some(p.p90)), ms(Some(p.max))))),
        ("total", ms(r.total_ms)),
        ("content events / reads", format!("{} / {}", r.content_events, r.reads)),
        ("HTTP status", r.status.map_or("–".into(), |s| s.to_string())),
        ("format", r.dialect.as_str().to_string()),
    ] {
        let _ = writeln!(out, "| {name} | {value} |");
    }
    out.push('\n');
    findings_list(out, &r.findings);
}

fn summary_row(out: &mut String, name: &str, s: &RunsSummary) {
    let spread = |sp: Option<super::runs::Spread>| sp.map_or("–".into(), |s| format!("{:.1} (p90 {:.1}, ±{:.1})", s.median, s.p90, s.spread / 2.0));
    let _ = writeln!(
        out,
        "| {name} | {} | {} | {} | {} | {} |",
        s.verdict.as_str(),
        spread(s.stats.ttft_ms),
        spread(s.stats.tpot_ms),
        spread(s.stats.total_ms),
        s.runs.len()
    );
}

/// The Markdown summary of any campaign.
pub fn campaign_markdown(report: &CampaignReport) -> String {
    let mut out = String::from("### streamscope report\n\n");
    match report {
        CampaignReport::Single(r) => single(&mut out, r),
        CampaignReport::Repeat(s) => {
            let _ = writeln!(out, "{} runs of one target.\n", s.runs.len());
            out.push_str("| target | verdict | TTFT ms (median) | TPOT ms | total ms | runs |\n|---|---|---|---|---|---|\n");
            summary_row(&mut out, "A", s);
            if let Some(c) = &s.cache {
                let _ = writeln!(out, "\nPrompt cache over runs: {} hit / {} miss tokens{}.", c.hit_tokens, c.miss_tokens, c.hit_ratio.map_or(String::new(), |r| format!(" ({:.0}% hit)", r * 100.0)));
                if let Some(warm) = c.warm_hit_ratio {
                    let _ = writeln!(out, "Warm runs ({}): {:.0}% hit; TTFT cold {}, warm {}.", c.warm_runs, warm * 100.0, ms(c.cold_ttft_ms), ms(c.warm_ttft_ms));
                }
            }
            out.push('\n');
            findings_list(&mut out, &s.findings);
        }
        CampaignReport::Sweep(sw) => {
            let _ = writeln!(out, "Concurrency sweep, {} rounds per level. {}\n", sw.per_level, md_text(&sw.summary));
            out.push_str("| streams at once | TTFT p50 | TTFT p95 | TPOT p50 | total p50 | errors | held by the browser |\n|---|---|---|---|---|---|---|\n");
            for l in &sw.sweep {
                let knee = if sw.knee == Some(l.level) { " (knee)" } else { "" };
                let _ = writeln!(
                    out,
                    "| {}{knee} | {} | {} | {} | {} | {} | {} |",
                    l.level,
                    ms(l.ttft_p50_ms),
                    ms(l.ttft_p95_ms),
                    ms(l.tpot_p50_ms),
                    ms(l.total_p50_ms),
                    l.errors,
                    l.browser_queued
                );
            }
            out.push('\n');
            findings_list(&mut out, &sw.findings);
        }
        CampaignReport::Hops(h) => {
            let _ = writeln!(out, "Hop ladder. {}\n", md_text(&h.summary));
            out.push_str("| hop | URL | verdict | TTFT | TPOT | events per read | findings |\n|---|---|---|---|---|---|---|\n");
            for hop in &h.hops {
                let mark = if h.first_bad_hop == Some(hop.index) { " (first change)" } else { "" };
                let codes: Vec<String> = hop.findings.iter().map(|c| code_span(c.as_str())).collect();
                let _ = writeln!(
                    out,
                    "| {}{mark} | {} | {} | {} | {} | {} | {} |",
                    md_text(&hop.label),
                    code_span(&crate::secrets::redact_url(&hop.url)),
                    hop.verdict.as_str(),
                    ms(hop.ttft_ms),
                    ms(hop.tpot_ms),
                    hop.events_per_read_mean.map_or("–".into(), |v| format!("{v:.1}")),
                    codes.join(" ")
                );
            }
        }
        CampaignReport::Compare(c) => {
            let _ = writeln!(out, "{}\n", md_text(&c.summary));
            out.push_str("| target | verdict | TTFT ms (median) | TPOT ms | total ms | runs |\n|---|---|---|---|---|---|\n");
            summary_row(&mut out, &format!("A: {}", md_text(&c.label_a)), &c.a);
            summary_row(&mut out, &format!("B: {}", md_text(&c.label_b)), &c.b);
            let _ = writeln!(out, "| B − A | | {} | {} | {} | |\n", ms(c.delta_ms.ttft), ms(c.delta_ms.tpot), ms(c.delta_ms.total));
            for (name, side) in [("A", &c.a), ("B", &c.b)] {
                if !side.findings.is_empty() {
                    let _ = writeln!(out, "Findings {name}:\n");
                    findings_list(&mut out, &side.findings);
                    out.push('\n');
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{Trace, TraceEnd};

    #[test]
    fn hostile_server_text_is_escaped_not_rendered() {
        let body = "{\"error\":{\"message\":\"![](https://tracker.example/p.png) <img src=x onerror=alert(1)> [x](javascript:1)\\n# Heading\"}}";
        let t = Trace::from_reads(500, "application/json", 5.0, vec![(10.0, body)], TraceEnd::Complete { at_ms: 11.0 });
        let md = campaign_markdown(&CampaignReport::Single(Box::new(Report::from_trace(&t))));
        // Each active character is escaped: none of these occurs without a backslash before it.
        let bare = |pat: &str| md.match_indices(pat).any(|(i, _)| !md[..i].ends_with('\\'));
        for pat in ["![", "<img", "[x]", "](", "\n# Heading"] {
            assert!(!bare(pat), "{pat} unescaped in {md}");
        }
        assert!(md.contains("\\!\\[\\]\\(https://tracker.example/p.png\\)"), "the text is still there to read: {md}");
    }

    fn streamed(ttft: f64) -> Report {
        let event = "data: {\"choices\":[{\"delta\":{\"content\":\"t\"}}]}\n\n";
        let reads: Vec<(f64, String)> = (0..5).map(|i| (ttft + 20.0 * i as f64, event.to_string())).collect();
        Report::from_trace(&Trace::from_reads(200, "text/event-stream", 3.0, reads, TraceEnd::Complete { at_ms: ttft + 100.0 }))
    }

    #[test]
    fn a_sweep_and_a_ladder_as_tables_with_hop_names_as_text() {
        use crate::report::campaign::{Layout, RunTag};
        use crate::report::hops::HopsSetup;
        use crate::report::sweep::SweepSetup;
        let tag = |group| RunTag { group, ..RunTag::default() };
        let sweep = CampaignReport::of(
            vec![(tag(1), streamed(300.0)), (tag(4), streamed(300.0)), (tag(4), streamed(900.0)), (tag(4), streamed(900.0)), (tag(4), streamed(900.0))],
            &Layout::Sweep(SweepSetup { levels: vec![1, 4], per_level: 1 }),
        );
        let md = campaign_markdown(&sweep);
        assert!(md.contains("| 4 (knee) | 900 ms |"), "{md}");
        let hops = CampaignReport::of(
            vec![(tag(0), streamed(300.0)), (tag(1), streamed(310.0))],
            &Layout::Hops(HopsSetup {
                urls: vec!["http://a/v1?key=sk-SECRET1".into(), "http://b/v1".into()],
                labels: vec!["![x](http://t/p.png)".into(), "CDN".into()],
            }),
        );
        let md = campaign_markdown(&hops);
        assert!(md.contains("\\!\\[x\\]\\(http://t/p.png\\)"), "a hop name is text: {md}");
        assert!(md.contains("`http://a/v1?key=REDACTED`") && !md.contains("sk-SECRET1"), "{md}");
        assert!(md.contains("The stream is the same at every hop"), "{md}");
    }

    #[test]
    fn md_text_and_code_span() {
        assert_eq!(md_text("a*b_c `d` <e> | f\nnext"), "a\\*b\\_c \\`d\\` \\<e\\> \\| f next");
        assert_eq!(md_text("300 ms: fine - ok."), "300 ms: fine - ok.");
        assert_eq!(code_span("GET http://h/v1"), "`GET http://h/v1`");
        assert_eq!(code_span("a`b``c"), "```a`b``c```");
        assert_eq!(code_span("`x"), "`` `x ``");
    }

    #[test]
    fn the_request_line_is_a_redacted_code_span() {
        let mut t = Trace::from_reads(200, "text/plain", 5.0, vec![(10.0, "hi")], TraceEnd::Complete { at_ms: 11.0 });
        t.request.url = "https://g.example/v1?alt=sse&key=AIzaSECRET123".into();
        t.request.method = "POST".into();
        let md = campaign_markdown(&CampaignReport::Single(Box::new(Report::from_trace(&t))));
        assert!(md.contains("(`POST https://g.example/v1?alt=sse&key=REDACTED`)"), "{md}");
        assert!(!md.contains("AIzaSECRET123"), "{md}");
    }
}
