//! Chinese (zh-CN) words of what an import says is wrong with a file.

use crate::i18n::keys::ImportKey;

/// The Chinese template of `key`.
pub fn template(key: ImportKey) -> &'static str {
    match key {
        ImportKey::Empty => "没有可导入的内容：请粘贴 streamscope 导出文件（或报告 JSON），或者把文件拖到这里。",
        ImportKey::NotJson => "这不是 JSON（{error}）。请粘贴完整的导出文件。",
        ImportKey::Version => "这个导出文件的格式版本是 {version}，本页面读取的是版本 {ours}。",
        ImportKey::Damaged => "这个 streamscope 导出文件已损坏或不完整（{error}）。",
        ImportKey::NoRuns => "这个导出文件里没有任何运行记录：没有可以据此重新计算报告的数据，因此不予显示。请在做测量的那个页面上重新导出。",
        ImportKey::DamagedAt => "这个 streamscope 导出文件已损坏：{problem}。",
        ImportKey::NotOurs => "这段 JSON 既不是 streamscope 导出文件，也不是 streamscope 报告。",
        ImportKey::NotATime => "{at} 的值为 {value}，不是一个时间",
        ImportKey::Negative => "{at} 的值为 {value}：时间是从调用 fetch() 起算的毫秒数，不可能为负",
        ImportKey::TooLate => "{at} 的值为 {value} ms，超过 {max} ms（约 116 天）：没有哪次运行会持续这么久",
        ImportKey::OutOfOrder => "{at} 的值为 {value} ms，早于它前面那次读取（{previous} ms）：读取是按时间顺序记录的",
        ImportKey::TooLarge => "{at} 的值为 {value}，超过 {max}（1 GiB）：浏览器的一次读取不可能交付这么多数据",
    }
}
