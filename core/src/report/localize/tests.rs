//! Every kind of report said in Chinese: the same JSON once its texts and `lang` are left out, Chinese
//! wherever the words come from the catalogue, and the Markdown summary in each language.

use serde_json::Value;

use super::*;
use crate::report::campaign::{CompareSetup, Layout, RunTag};
use crate::report::compare::{Side, Subject};
use crate::report::export::{import, report_json_text, Export, ExportedRun, ImportSource, Imported};
use crate::report::hops::HopsSetup;
use crate::report::markdown::campaign_markdown;
use crate::report::sweep::SweepSetup;
use crate::trace::{ConnectionTiming, Trace, TraceEnd};
use crate::verdict::Verdict;

/// The JSON fields that hold words: they change with the language, nothing else may.
const TEXT_FIELDS: [&str; 6] = ["title", "detail", "fix", "summary", "unavailable", "lang"];

fn without_texts(v: &mut Value) {
    match v {
        Value::Object(map) => {
            for key in TEXT_FIELDS {
                map.remove(key);
            }
            map.values_mut().for_each(without_texts);
        }
        Value::Array(items) => items.iter_mut().for_each(without_texts),
        _ => {}
    }
}

fn has_chinese(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

/// One text of a report: where it is, whether all its words come from the catalogue, and the words.
struct Said {
    at: String,
    worded: bool,
    words: String,
}

fn finding_texts(at: &str, findings: &[Finding], out: &mut Vec<Said>) {
    for f in findings {
        // A title may be all names ("SSE, openai-chat"): the finding's words are judged together.
        let words = [Some(&f.title), Some(&f.detail), f.fix.as_ref()].into_iter().flatten().cloned().collect::<Vec<_>>();
        out.push(Said { at: format!("{at}.{}", f.code), worded: f.is_worded(), words: words.join("\n") });
    }
}

fn runs_texts(at: &str, s: &RunsSummary, out: &mut Vec<Said>) {
    finding_texts(at, &s.findings, out);
    if let Some(c) = &s.connection {
        if let Some(note) = &c.unavailable {
            out.push(Said { at: format!("{at}.unavailable"), worded: c.unavailable_words.is_worded(), words: note.clone() });
        }
        if let Some(note) = &c.preflight_note {
            out.push(Said { at: format!("{at}.preflight_note"), worded: c.preflight_words.is_worded(), words: note.clone() });
        }
    }
    for (i, r) in s.runs.iter().enumerate() {
        finding_texts(&format!("{at}.runs[{i}]"), &r.findings, out);
    }
}

/// Every text of a campaign's report, in a fixed order.
fn texts(report: &CampaignReport) -> Vec<Said> {
    let mut out = Vec::new();
    match report {
        CampaignReport::Single(r) => finding_texts("", &r.findings, &mut out),
        CampaignReport::Repeat(s) => runs_texts("", s, &mut out),
        CampaignReport::Compare(c) => {
            out.push(Said { at: "summary".into(), worded: c.summary_words.is_worded(), words: c.summary.clone() });
            runs_texts("a", &c.a, &mut out);
            runs_texts("b", &c.b, &mut out);
        }
        CampaignReport::Sweep(s) => {
            out.push(Said { at: "summary".into(), worded: s.summary_words.is_worded(), words: s.summary.clone() });
            finding_texts("", &s.findings, &mut out);
        }
        CampaignReport::Hops(h) => {
            out.push(Said { at: "summary".into(), worded: h.summary_words.is_worded(), words: h.summary.clone() });
        }
    }
    out
}

/// Checks `report` said in Chinese against itself in English; `ours` are the texts this module words
/// (summaries, the connection note), which must all be worded. Returns the Chinese report.
fn check_localized(report: &CampaignReport, ours: &[&str]) -> CampaignReport {
    assert_eq!(report.localize(Lang::En), *report);
    assert_eq!(report.localize(Lang::En).to_json_pretty(), report.to_json_pretty(), "English is unchanged");
    let zh = report.localize(Lang::ZhCn);

    let mut en_json = serde_json::to_value(report).unwrap();
    let mut zh_json = serde_json::to_value(&zh).unwrap();
    without_texts(&mut en_json);
    without_texts(&mut zh_json);
    assert_eq!(zh_json, en_json, "only the words change");
    for lang in Lang::ALL {
        let mut page: Value = serde_json::from_str(&report_json_text(report, None, lang)).unwrap();
        assert_eq!(page["lang"], lang.tag());
        without_texts(&mut page);
        assert_eq!(page, en_json, "#report-json in {lang:?}");
    }

    let (en_texts, zh_texts) = (texts(report), texts(&zh));
    assert_eq!(en_texts.len(), zh_texts.len());
    let mut worded = 0;
    for (en, zh) in en_texts.iter().zip(&zh_texts) {
        assert_eq!((&en.at, en.worded), (&zh.at, zh.worded));
        if ours.iter().any(|o| en.at.ends_with(o)) {
            assert!(en.worded, "{}: {:?} is not from the catalogue", en.at, en.words);
        }
        if en.worded {
            worded += 1;
            assert!(has_chinese(&zh.words), "{}: {:?}", zh.at, zh.words);
            assert!(!has_chinese(&en.words), "{}: {:?}", en.at, en.words);
        } else {
            assert_eq!(zh.words, en.words, "{}: words not from the catalogue stay as they are", en.at);
        }
    }
    for o in ours {
        assert!(en_texts.iter().any(|t| t.at.ends_with(o)), "no {o} in {report:?}");
    }
    assert!(worded > 0, "nothing said in Chinese");
    zh
}

const EVENT: &str = "data: {\"choices\":[{\"delta\":{\"content\":\"t\"}}]}\n\n";

/// A lab stream: `tokens` events `cadence_ms` apart from `ttft_ms`, then `[DONE]`.
fn streamed(ttft_ms: f64, tokens: usize, cadence_ms: f64) -> Report {
    let mut reads: Vec<(f64, String)> = (0..tokens).map(|i| (ttft_ms + cadence_ms * i as f64, EVENT.to_string())).collect();
    let end = ttft_ms + cadence_ms * tokens as f64;
    reads.push((end, "data: [DONE]\n\n".into()));
    Report::from_trace(&Trace::from_reads(200, "text/event-stream", 4.0, reads, TraceEnd::Complete { at_ms: end + 1.0 }))
}

/// A buffering proxy in front of the lab: 20 events per read, 400 ms apart.
fn buffered(ttft_ms: f64) -> Report {
    let mut reads: Vec<(f64, String)> = (0..3).map(|b| (ttft_ms + 400.0 * b as f64, EVENT.repeat(20))).collect();
    reads.push((ttft_ms + 801.0, "data: [DONE]\n\n".into()));
    Report::from_trace(&Trace::from_reads(200, "text/event-stream", 4.0, reads, TraceEnd::Complete { at_ms: ttft_ms + 802.0 }))
}

#[test]
fn a_single_run_in_chinese() {
    let report = CampaignReport::Single(Box::new(buffered(700.0)));
    let CampaignReport::Single(zh) = check_localized(&report, &[]) else { panic!("single") };
    assert_eq!(zh.verdict, Verdict::Buffered);
}

#[test]
fn a_failed_run_in_chinese() {
    let t = Trace {
        end: Some(TraceEnd::NetworkError { at_ms: 3.0, message: "Failed to fetch".into(), during_body: false }),
        ..Trace::default()
    };
    let zh = check_localized(&CampaignReport::Single(Box::new(Report::from_trace(&t))), &["network_error"]);
    assert!(zh.to_json_pretty().contains("Failed to fetch"), "the browser's message is data, shown as it is");
}

#[test]
fn repeated_runs_in_chinese_with_the_connection_note() {
    let hidden = ConnectionTiming { next_hop_protocol: Some("http/1.1".into()), timing_allowed: Some(false), ..ConnectionTiming::default() };
    let runs: Vec<(Side, Report)> = [300.0, 320.0, 310.0]
        .into_iter()
        .map(|ttft| {
            let mut r = streamed(ttft, 10, 20.0);
            r.connection = Some(hidden.clone());
            (Side::A, r)
        })
        .collect();
    // The connection cost is worked out from the runs' Resource Timing when they are summarised.
    let report = CampaignReport::from_runs(runs, None);
    let zh = check_localized(&report, &["unavailable"]);
    let CampaignReport::Repeat(s) = zh else { panic!("repeat") };
    let note = s.connection.unwrap().unavailable.unwrap();
    assert!(note.contains("`Timing-Allow-Origin: *`") && note.starts_with("DNS、建连"), "{note}");
}

#[test]
fn a_comparison_in_chinese() {
    let runs = vec![(Side::A, streamed(300.0, 60, 20.0)), (Side::B, buffered(700.0))];
    let setup = CompareSetup { subject: Subject::Path, label_a: "direct".into(), label_b: "nginx".into() };
    let report = CampaignReport::from_runs(runs, Some(setup));
    let CampaignReport::Compare(c) = &report else { panic!("compare") };
    assert!(c.summary.starts_with("Through nginx (vs direct), the first token arrives 400 ms later"), "{}", c.summary);
    let CampaignReport::Compare(zh) = check_localized(&report, &["summary"]) else { panic!("compare") };
    assert!(
        zh.summary.starts_with("经由 nginx（对比 direct），首字晚到 400 ms，文本每隔 400 ms 成块到达"),
        "{}",
        zh.summary
    );
    assert!(zh.summary.ends_with('。'), "{}", zh.summary);
}

#[test]
fn a_comparison_with_a_failed_side_in_chinese() {
    let failed = Report::from_trace(&Trace {
        end: Some(TraceEnd::NetworkError { at_ms: 3.0, message: "reset".into(), during_body: false }),
        ..Trace::default()
    });
    let setup = CompareSetup { subject: Subject::Model, label_a: "m-a".into(), label_b: "m-b".into() };
    let report = CampaignReport::from_runs(vec![(Side::A, streamed(300.0, 10, 20.0)), (Side::B, failed)], Some(setup));
    let CampaignReport::Compare(zh) = check_localized(&report, &["summary"]) else { panic!("compare") };
    assert_eq!(zh.summary, "m-b 失败了，无法比较耗时；请看它的发现。");
}

/// Levels 1 and 4 over HTTP/2: half the streams at level 4 wait 500 ms for a slot.
#[test]
fn a_sweep_in_chinese() {
    let tag = |group| RunTag { group, ..RunTag::default() };
    let mut runs: Vec<(RunTag, Report)> = (0..3).map(|_| (tag(1), streamed(300.0, 10, 20.0))).collect();
    runs.extend([300.0, 300.0, 800.0, 800.0, 800.0].map(|ttft| (tag(4), streamed(ttft, 10, 20.0))));
    let report = CampaignReport::of(runs, &Layout::Sweep(SweepSetup { levels: vec![1, 4], per_level: 1 }));
    let CampaignReport::Sweep(s) = &report else { panic!("sweep") };
    assert_eq!(s.knee, Some(4), "{}", s.summary);
    let CampaignReport::Sweep(zh) = check_localized(&report, &["summary"]) else { panic!("sweep") };
    assert!(zh.summary.starts_with("服务端在 4 路并发时开始排队：这一级的首字延迟 p50 为 800 ms"), "{}", zh.summary);
}

#[test]
fn a_hop_ladder_in_chinese() {
    let tag = |group| RunTag { group, ..RunTag::default() };
    let runs: Vec<(RunTag, Report)> = (0..2)
        .flat_map(|_| [(tag(0), streamed(300.0, 20, 40.0)), (tag(1), streamed(300.0, 20, 40.0)), (tag(2), buffered(700.0))])
        .collect();
    let setup = HopsSetup {
        urls: (0..3).map(|i| format!("http://127.0.0.1:{}/v1/chat/completions", 8000 + i)).collect(),
        labels: vec!["model server".into(), "gateway".into(), "CDN".into()],
    };
    let report = CampaignReport::of(runs, &Layout::Hops(setup));
    let CampaignReport::Hops(zh) = check_localized(&report, &["summary"]) else { panic!("hops") };
    assert!(
        zh.summary.starts_with("从 gateway 到 CDN 之间开始出现缓冲：gateway 判定为流式（首字延迟 300 ms），CDN 判定为缓冲"),
        "{}",
        zh.summary
    );
    assert_eq!(zh.first_bad_hop, Some(2));
}

#[test]
fn the_markdown_summary_in_english_and_in_chinese() {
    let runs = vec![(Side::A, streamed(300.0, 60, 20.0)), (Side::B, buffered(700.0))];
    let setup = CompareSetup { subject: Subject::Path, label_a: "direct".into(), label_b: "nginx".into() };
    let compare = CampaignReport::from_runs(runs, Some(setup));
    let en = campaign_markdown(&compare, Lang::En);
    assert!(en.starts_with("### streamscope report\n\nThrough nginx \\(vs direct\\), "), "{en}");
    assert!(en.contains("| target | verdict | TTFT ms (median) | TPOT ms | total ms | runs |\n|---|---|---|---|---|---|\n"), "{en}");
    assert!(en.contains("| B: nginx | buffered | "), "{en}");
    let zh = campaign_markdown(&compare, Lang::ZhCn);
    assert!(zh.starts_with("### streamscope 报告\n\n经由 nginx（对比 direct），首字晚到 400 ms"), "{zh}");
    assert!(zh.contains("| 目标 | 结论 | 首字延迟 TTFT ms（中位数） | 每 token 输出时间 TPOT ms | 总耗时 ms | 运行次数 |\n|---|---|---|---|---|---|\n"), "{zh}");
    assert!(zh.contains("| B: nginx | 缓冲 | "), "{zh}");
    // The figures are the same in both: the B − A row holds only figures.
    let delta_row = |md: &str| md.lines().find(|l| l.starts_with("| B − A |")).map(str::to_string);
    assert_eq!(delta_row(&zh), delta_row(&en));
    assert!(delta_row(&en).is_some());

    let single = CampaignReport::Single(Box::new(buffered(700.0)));
    let en = campaign_markdown(&single, Lang::En);
    assert!(en.contains("**Verdict: buffered** (`") && en.contains("| metric | value |\n|---|---|\n| headers | 4.0 ms |"), "{en}");
    let zh = campaign_markdown(&single, Lang::ZhCn);
    assert!(zh.contains("**结论：缓冲** (`") && zh.contains("| 指标 | 数值 |\n|---|---|\n| 响应头 | 4.0 ms |"), "{zh}");
    for label in ["| metric |", "| total |", "Verdict", "Fix:", "runs of one target"] {
        assert!(!zh.contains(label), "{label} left in English: {zh}");
    }
    // Finding codes stay codes.
    assert!(zh.contains("- `framing` **"), "{zh}");
}

#[test]
fn the_export_and_report_json_say_their_language() {
    let run = ExportedRun {
        side: Side::A,
        group: 0,
        trace: Trace::from_reads(200, "text/event-stream", 4.0, vec![(300.0, EVENT)], TraceEnd::Complete { at_ms: 301.0 }),
    };
    let report = CampaignReport::Single(Box::new(Report::from_trace(&run.trace)));
    let export = Export::new(None, &report, vec![run], Lang::ZhCn);
    let json: Value = serde_json::from_str(&export.to_json_pretty()).unwrap();
    assert_eq!(json["lang"], "zh-CN");
    assert!(has_chinese(json["report"]["findings"][0]["title"].as_str().unwrap()), "{json}");
    let Ok(Imported::Export(back)) = import(&export.to_json_pretty()) else { panic!("imports") };
    assert_eq!(back.lang, Lang::ZhCn);
    // Files written before `lang` was recorded are English.
    let mut old = json.clone();
    old.as_object_mut().unwrap().remove("lang");
    let Ok(Imported::Export(back)) = import(&old.to_string()) else { panic!("an old file imports") };
    assert_eq!(back.lang, Lang::En);

    let marked: Value = serde_json::from_str(&report_json_text(&report, Some(ImportSource::Traces), Lang::ZhCn)).unwrap();
    assert_eq!((marked["lang"].as_str(), marked["imported"].as_bool(), marked["imported_from"].as_str()), (Some("zh-CN"), Some(true), Some("traces")));
}

#[test]
fn import_errors_in_chinese() {
    use crate::report::export::import_in;
    assert_eq!(import_in("", Lang::ZhCn).unwrap_err(), "没有可导入的内容：请粘贴 streamscope 导出文件（或报告 JSON），或者把文件拖到这里。");
    let run = ExportedRun {
        side: Side::A,
        group: 0,
        trace: Trace::from_reads(200, "text/plain", 5.0, vec![(10.0, "a"), (20.0, "b")], TraceEnd::Complete { at_ms: 30.0 }),
    };
    let report = CampaignReport::Single(Box::new(Report::from_trace(&run.trace)));
    let mut json = serde_json::to_value(Export::new(None, &report, vec![run], Lang::En)).unwrap();
    json["runs"][0]["trace"]["reads"][1]["at_ms"] = 7.5.into();
    let (en, zh) = (import_in(&json.to_string(), Lang::En).unwrap_err(), import_in(&json.to_string(), Lang::ZhCn).unwrap_err());
    assert_eq!(en, "This streamscope export is damaged: runs[0].trace.reads[1].at_ms is 7.5 ms, before the read ahead of it (10 ms): reads are recorded in time order.");
    assert_eq!(zh, "这个 streamscope 导出文件已损坏：runs[0].trace.reads[1].at_ms 的值为 7.5 ms，早于它前面那次读取（10 ms）：读取是按时间顺序记录的。");
}
