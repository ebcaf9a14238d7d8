//! A Markdown summary of a campaign, to paste into a support ticket: the verdict, the numbers and the
//! findings, readable without streamscope.

use std::fmt::Write;

use super::campaign::CampaignReport;
use crate::findings::Finding;
use crate::report::Report;
use super::runs::RunsSummary;

fn ms(v: Option<f64>) -> String {
    crate::text::ms_or(v, "–")
}

fn findings_list(out: &mut String, findings: &[Finding]) {
    for f in findings {
        let _ = write!(out, "- `{}` **{}**: {}", f.code, f.title, f.detail);
        if let Some(fix) = &f.fix {
            let _ = write!(out, " Fix: {fix}");
        }
        out.push('\n');
    }
}

fn single(out: &mut String, r: &Report) {
    let _ = writeln!(out, "**Verdict: {}** ({} {})\n", r.verdict.as_str(), r.request.method, r.request.url);
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
            }
            out.push('\n');
            findings_list(&mut out, &s.findings);
        }
        CampaignReport::Compare(c) => {
            let _ = writeln!(out, "{}\n", c.summary);
            out.push_str("| target | verdict | TTFT ms (median) | TPOT ms | total ms | runs |\n|---|---|---|---|---|---|\n");
            summary_row(&mut out, &format!("A: {}", c.label_a), &c.a);
            summary_row(&mut out, &format!("B: {}", c.label_b), &c.b);
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
