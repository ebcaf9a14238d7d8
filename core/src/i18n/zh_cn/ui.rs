//! Chinese words of the page itself.

use crate::i18n::keys::UiKey;

/// The Chinese template of `key`.
pub fn template(key: UiKey) -> &'static str {
    match key {
        UiKey::Tagline => "在用户真正看到文字的地方测量 LLM 流式输出：浏览器里。",
        UiKey::LanguageLabel => "语言",
        UiKey::VerdictStreaming => "流式：内容一生成就送到了浏览器。",
        UiKey::VerdictBuffered => "缓冲：有一层把内容扣住，再一批一批地放出来。",
        UiKey::VerdictCollected => "整段返回：整个回答在最后一次性到达。",
        UiKey::VerdictFailed => "失败：没有可用的流。下面的发现说明了原因和处理办法。",
        UiKey::Measuring => "正在测量…",
        UiKey::PressRun => "点击“运行”开始测量流式输出。",
        UiKey::ImportedTraces => "导入的结果，不是在这里测量的：根据文件里记录的 trace 重新计算。",
        UiKey::ImportedReport => "导入的报告不含 trace：数字照文件所写展示，没有重新测量或重新计算。",
        UiKey::BackToMeasurement => "回到你的测量结果",
        UiKey::RunOf => "第 {done} 次，共 {planned} 次",
        UiKey::RunOfSide => "第 {done} 次，共 {planned} 次（{side} 侧）",
        UiKey::RunsDisagree => "各次运行的结论不一致：{counts}。",
        UiKey::RunsDisagreeSides => "各次运行的结论不一致：A 侧 {a}；B 侧 {b}。",
        UiKey::FixLabel => "处理办法：",
        UiKey::ReplayStart => "按录制时的速度回放",
        UiKey::ReplayStop => "停止回放（+{at} s）",
        UiKey::ReportJsonAria => "JSON 报告",
        UiKey::ReportJsonHeading => "报告（JSON）",
        UiKey::LanguageUnavailable => "无法加载该语言的文字（{reason}），页面暂以英文显示。",
        UiKey::PartUnavailable => "页面的这一部分未能加载（{part}）：网络中断，或页面打开后服务器上的版本已更新。请刷新页面；已测得的结果仍显示在上方。",
    }
}
