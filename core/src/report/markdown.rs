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
use super::runs::RunsSummary;
use super::words::verdict_word;
use crate::findings::Finding;
use crate::i18n::keys::MarkdownKey as K;
use crate::i18n::{Lang, Text};
use crate::report::Report;
use crate::fixed::fixed;

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

/// A label of the summary in `lang`.
fn say(key: K, lang: Lang) -> String {
    Text::msg(key).render(lang)
}

/// A table's header row and its separator.
fn table_head(out: &mut String, cells: &[K], lang: Lang) {
    for cell in cells {
        let _ = write!(out, "| {} ", say(*cell, lang));
    }
    out.push_str("|\n");
    out.push_str(&"|---".repeat(cells.len()));
    out.push_str("|\n");
}

fn findings_list(out: &mut String, findings: &[Finding], lang: Lang) {
    for f in findings {
        let line = Text::msg(K::Finding).with("title", md_text(&f.title)).with("detail", md_text(&f.detail));
        let _ = write!(out, "- {} {}", code_span(f.code.as_str()), line.render(lang));
        if let Some(fix) = &f.fix {
            out.push_str(&Text::msg(K::Fix).with("fix", md_text(fix)).render(lang));
        }
        out.push('\n');
    }
}

fn single(out: &mut String, r: &Report, lang: Lang) {
    let request = format!("{} {}", r.request.method, crate::secrets::redact_url(&r.request.url));
    let verdict = Text::msg(K::Verdict).with("verdict", verdict_word(r.verdict)).render(lang);
    let _ = writeln!(out, "**{verdict}** ({})\n", code_span(&request));
    table_head(out, &[K::Metric, K::Value], lang);
    let tpot_n = r.tpot_n.map_or(String::new(), |n| format!(" (N={n})"));
    for (name, value) in [
        (K::Headers, ms(r.headers_ms)),
        (K::Ttfb, ms(r.ttfb_ms)),
        (K::Ttft, ms(r.ttft_ms)),
        (K::Tpot, format!("{}{tpot_n}", ms(r.tpot_ms))),
        (K::Itl, r.itl_ms.map_or("–".into(), |p| format!("{} / {} / {}", ms(Some(p.p50)), ms(Some(p.p90)), ms(Some(p.max))))),
        (K::Total, ms(r.total_ms)),
        (K::EventsReads, format!("{} / {}", r.content_events, r.reads)),
        (K::HttpStatus, r.status.map_or("–".into(), |s| s.to_string())),
        (K::Format, r.dialect.as_str().to_string()),
    ] {
        let _ = writeln!(out, "| {} | {value} |", say(name, lang));
    }
    out.push('\n');
    findings_list(out, &r.findings, lang);
}

/// The header of a table of summarised sides.
const SIDES_TABLE: [K; 6] = [K::Target, K::VerdictColumn, K::TtftMedianMs, K::TpotMs, K::TotalMs, K::Runs];

fn summary_row(out: &mut String, name: &str, s: &RunsSummary, lang: Lang) {
    let spread = |sp: Option<super::runs::Spread>| sp.map_or("–".into(), |s| format!("{} (p90 {}, ±{})", fixed(s.median, 1), fixed(s.p90, 1), fixed(s.spread / 2.0, 1)));
    let _ = writeln!(
        out,
        "| {name} | {} | {} | {} | {} | {} |",
        verdict_word(s.verdict).render(lang),
        spread(s.stats.ttft_ms),
        spread(s.stats.tpot_ms),
        spread(s.stats.total_ms),
        s.runs.len()
    );
}

/// A share as a percentage without decimals: `55%`.
fn percent(share: f64) -> String {
    format!("{}%", fixed(share * 100.0, 0))
}

/// The Markdown summary of any campaign, in `lang`: its findings and sentences said in `lang` where the
/// report kept their texts ([`CampaignReport::localize`]), its figures and codes as in the report.
pub fn campaign_markdown(report: &CampaignReport, lang: Lang) -> String {
    let report = report.localize(lang);
    let mut out = format!("### {}\n\n", say(K::Heading, lang));
    match &report {
        CampaignReport::Single(r) => single(&mut out, r, lang),
        CampaignReport::Repeat(s) => {
            let _ = writeln!(out, "{}\n", Text::msg(K::RepeatIntro).count("n", s.runs.len()).render(lang));
            table_head(&mut out, &SIDES_TABLE, lang);
            summary_row(&mut out, "A", s, lang);
            if let Some(c) = &s.cache {
                let ratio = c.hit_ratio.map_or_else(Text::empty, |r| Text::msg(K::CacheRatio).with("percent", percent(r)));
                let line = Text::msg(K::Cache).with("hit", c.hit_tokens.to_string()).with("miss", c.miss_tokens.to_string());
                let _ = writeln!(out, "\n{}", line.with("ratio", ratio).render(lang));
                if let Some(warm) = c.warm_hit_ratio {
                    let line = Text::msg(K::Warm)
                        .count("n", c.warm_runs)
                        .with("percent", percent(warm))
                        .with("cold", ms(c.cold_ttft_ms))
                        .with("warm", ms(c.warm_ttft_ms));
                    let _ = writeln!(out, "{}", line.render(lang));
                }
            }
            out.push('\n');
            findings_list(&mut out, &s.findings, lang);
        }
        CampaignReport::Sweep(sw) => {
            let intro = Text::msg(K::SweepIntro).count("rounds", sw.per_level as usize).with("summary", md_text(&sw.summary));
            let _ = writeln!(out, "{}\n", intro.render(lang));
            table_head(
                &mut out,
                &[K::StreamsAtOnce, K::TtftP50, K::TtftP95, K::TpotP50, K::TotalP50, K::Errors, K::HeldByBrowser],
                lang,
            );
            for l in &sw.sweep {
                let knee = if sw.knee == Some(l.level) { say(K::Knee, lang) } else { String::new() };
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
            findings_list(&mut out, &sw.findings, lang);
        }
        CampaignReport::Hops(h) => {
            let _ = writeln!(out, "{}\n", Text::msg(K::HopsIntro).with("summary", md_text(&h.summary)).render(lang));
            table_head(&mut out, &[K::Hop, K::Url, K::VerdictColumn, K::Ttft, K::Tpot, K::EventsPerRead, K::Findings], lang);
            for hop in &h.hops {
                let mark = if h.first_bad_hop == Some(hop.index) { say(K::FirstChange, lang) } else { String::new() };
                let codes: Vec<String> = hop.findings.iter().map(|c| code_span(c.as_str())).collect();
                let _ = writeln!(
                    out,
                    "| {}{mark} | {} | {} | {} | {} | {} | {} |",
                    md_text(&hop.label),
                    code_span(&crate::secrets::redact_url(&hop.url)),
                    verdict_word(hop.verdict).render(lang),
                    ms(hop.ttft_ms),
                    ms(hop.tpot_ms),
                    hop.events_per_read_mean.map_or("–".into(), |v| fixed(v, 1)),
                    codes.join(" ")
                );
            }
        }
        CampaignReport::Compare(c) => {
            let _ = writeln!(out, "{}\n", md_text(&c.summary));
            table_head(&mut out, &SIDES_TABLE, lang);
            summary_row(&mut out, &format!("A: {}", md_text(&c.label_a)), &c.a, lang);
            summary_row(&mut out, &format!("B: {}", md_text(&c.label_b)), &c.b, lang);
            let _ = writeln!(out, "| B − A | | {} | {} | {} | |\n", ms(c.delta_ms.ttft), ms(c.delta_ms.tpot), ms(c.delta_ms.total));
            for (name, side) in [("A", &c.a), ("B", &c.b)] {
                if !side.findings.is_empty() {
                    let _ = writeln!(out, "{}\n", Text::msg(K::SideFindings).with("side", name).render(lang));
                    findings_list(&mut out, &side.findings, lang);
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
        let md = campaign_markdown(&CampaignReport::Single(Box::new(Report::from_trace(&t))), Lang::En);
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
        let md = campaign_markdown(&sweep, Lang::En);
        assert!(md.contains("| 4 (knee) | 900 ms |"), "{md}");
        let hops = CampaignReport::of(
            vec![(tag(0), streamed(300.0)), (tag(1), streamed(310.0))],
            &Layout::Hops(HopsSetup {
                urls: vec!["http://a/v1?key=sk-SECRET1".into(), "http://b/v1".into()],
                labels: vec!["![x](http://t/p.png)".into(), "CDN".into()],
            }),
        );
        let md = campaign_markdown(&hops, Lang::En);
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
        let md = campaign_markdown(&CampaignReport::Single(Box::new(Report::from_trace(&t))), Lang::En);
        assert!(md.contains("(`POST https://g.example/v1?alt=sse&key=REDACTED`)"), "{md}");
        assert!(!md.contains("AIzaSECRET123"), "{md}");
    }
}
