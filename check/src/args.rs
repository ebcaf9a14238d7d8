//! The command line: `--flag value` or `--flag=value`, each flag at most once (but `--page-param`).
//! Every mistake is a message naming the flag; the caller prints it with the usage and exits 2.

use std::path::{Path, PathBuf};

use streamscope_core::config::page_config::{parse_hop_labels, parse_hops};

use crate::criteria::{parse_limit_ms, Expect};
use crate::target::{read_body, TargetSpec};

/// The default of `--timeout-s`.
pub const DEFAULT_TIMEOUT_S: f64 = 300.0;
/// The most sessions `--parallel` opens at once.
pub const MAX_PARALLEL: usize = 32;

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// `--help`.
    Help,
    /// `--version`.
    Version,
    /// Run checks.
    Check(Box<Options>),
}

/// Where the page comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum PageSource {
    /// Serve a built bundle on loopback (`--bundle DIR`, or found by default).
    Bundle(Option<PathBuf>),
    /// A deployed copy (`--page URL`).
    Url(String),
}

/// Everything a check run needs from the command line.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// The target given by flags, or the defaults under each entry of a targets file.
    pub template: TargetSpec,
    /// `--targets FILE`.
    pub targets_file: Option<PathBuf>,
    /// `--parallel N`.
    pub parallel: usize,
    /// `--timeout-s S`.
    pub timeout_s: f64,
    /// `--bundle` / `--page`.
    pub page: PageSource,
    /// `--webdriver URL` (ends with `/`).
    pub webdriver: Option<String>,
    /// `--out DIR`.
    pub out_dir: Option<PathBuf>,
    /// `--junit FILE`.
    pub junit: Option<PathBuf>,
    /// `--share-key`.
    pub share_key: bool,
}

/// Parses the arguments after the program name (`@FILE` bodies relative to the working directory).
pub fn parse(args: &[String]) -> Result<Command, String> {
    let mut flags: Vec<(String, Option<String>)> = Vec::new();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag.to_string(), Some(value.to_string())),
            _ => (arg.clone(), None),
        };
        match flag.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "-V" | "--version" => return Ok(Command::Version),
            "--share-key" => {
                if inline.is_some() {
                    return Err("--share-key takes no value".into());
                }
                flags.push((flag, None));
            }
            f if VALUE_FLAGS.contains(&f) => {
                let value = match inline {
                    Some(v) => v,
                    None => rest.next().cloned().ok_or_else(|| format!("{f} needs a value"))?,
                };
                if f != "--page-param" && flags.iter().any(|(seen, _)| seen == f) {
                    return Err(format!("{f} is given twice"));
                }
                flags.push((flag, Some(value)));
            }
            f if f.starts_with('-') => return Err(format!("unknown option: {f}")),
            f => return Err(format!("unexpected argument: {f:?} (options start with --)")),
        }
    }
    options(flags).map(|o| Command::Check(Box::new(o)))
}

/// Flags that take a value.
const VALUE_FLAGS: [&str; 21] = [
    "--url", "--method", "--body", "--name", "--vs", "--hops", "--hop-labels", "--repeat", "--page-param", "--expect",
    "--max-ttft-ms", "--max-tpot-ms", "--max-total-ms", "--targets", "--parallel", "--timeout-s", "--bundle", "--page",
    "--webdriver", "--out", "--junit",
];

fn options(flags: Vec<(String, Option<String>)>) -> Result<Options, String> {
    let mut o = Options {
        template: TargetSpec::default(),
        targets_file: None,
        parallel: 1,
        timeout_s: DEFAULT_TIMEOUT_S,
        page: PageSource::Bundle(None),
        webdriver: None,
        out_dir: None,
        junit: None,
        share_key: false,
    };
    let t = &mut o.template;
    let mut bundle = None;
    for (flag, value) in flags {
        let v = value.unwrap_or_default();
        let f = flag.as_str();
        match f {
            "--url" => t.url = Some(v),
            "--method" => t.method = Some(v),
            "--body" => t.body = Some(read_body(&v, Path::new(".")).map_err(|err| format!("--body: {err}"))?),
            "--name" => t.name = Some(v),
            "--vs" => t.vs = Some(v),
            "--hops" => t.hops = Some(parse_hops(&v)),
            "--hop-labels" => t.hop_labels = Some(parse_hop_labels(&v)),
            "--repeat" => t.repeat = Some(v.trim().parse().map_err(|_| format!("--repeat: not a whole number: {v:?}"))?),
            "--page-param" => {
                let (key, value) = v.split_once('=').ok_or_else(|| format!("--page-param: expected KEY=VALUE, got {v:?}"))?;
                t.page_params.push((key.trim().to_string(), value.to_string()));
            }
            "--expect" => t.expect = Some(Expect::parse(&v).map_err(|err| format!("--expect: {err}"))?),
            "--max-ttft-ms" => t.max_ttft_ms = Some(parse_limit_ms(f, &v)?),
            "--max-tpot-ms" => t.max_tpot_ms = Some(parse_limit_ms(f, &v)?),
            "--max-total-ms" => t.max_total_ms = Some(parse_limit_ms(f, &v)?),
            "--targets" => o.targets_file = Some(PathBuf::from(v)),
            "--parallel" => {
                o.parallel = v
                    .trim()
                    .parse()
                    .ok()
                    .filter(|n| (1..=MAX_PARALLEL).contains(n))
                    .ok_or_else(|| format!("--parallel: not a whole number from 1 to {MAX_PARALLEL}: {v:?}"))?
            }
            "--timeout-s" => {
                o.timeout_s = v
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|s| s.is_finite() && *s > 0.0)
                    .ok_or_else(|| format!("--timeout-s: not a number of seconds above 0: {v:?}"))?
            }
            "--bundle" => bundle = Some(PathBuf::from(v)),
            "--page" => o.page = PageSource::Url(crate::target::check_url("--page", &v)?),
            "--webdriver" => o.webdriver = Some(webdriver_url(&v)?),
            "--out" => o.out_dir = Some(PathBuf::from(v)),
            "--junit" => o.junit = Some(PathBuf::from(v)),
            "--share-key" => o.share_key = true,
            other => return Err(format!("unknown option: {other}")),
        }
    }
    if let Some(dir) = bundle {
        if matches!(o.page, PageSource::Url(_)) {
            return Err("--bundle and --page: give one (serve a bundle here, or use a deployed page)".into());
        }
        o.page = PageSource::Bundle(Some(dir));
    }
    if o.targets_file.is_some() && o.template.url.is_some() {
        return Err("--url and --targets: give one (in a targets file, each entry has its url)".into());
    }
    if o.targets_file.is_none() && o.template.url.is_none() {
        return Err("nothing to check: give --url URL or --targets FILE".into());
    }
    Ok(o)
}

/// A WebDriver endpoint: plain `http://`, ending with `/` (so that `session` is joined under a path
/// such as `/wd/hub/`).
fn webdriver_url(text: &str) -> Result<String, String> {
    let url = text.trim();
    if url.to_ascii_lowercase().starts_with("https://") {
        return Err("--webdriver: https is not supported by this build (it speaks plain HTTP to WebDriver); \
                    reach the grid over http or through a local tunnel"
            .into());
    }
    let url = crate::target::check_url("--webdriver", url)?;
    Ok(if url.ends_with('/') { url } else { format!("{url}/") })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split(' ').map(String::from).collect()
    }

    fn check(text: &str) -> Options {
        match parse(&args(text)) {
            Ok(Command::Check(o)) => *o,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn the_issue_example_parses() {
        let o = check("--url https://api.example.com/v1/chat/completions --body {} --expect streaming --max-ttft-ms 1500 --max-tpot-ms=80 --repeat 3 --vs https://b.example/v1 --hops http://h1/x,http://h2/x");
        let t = &o.template;
        assert_eq!(t.url.as_deref(), Some("https://api.example.com/v1/chat/completions"));
        assert_eq!((t.body.as_deref(), t.repeat, t.max_ttft_ms, t.max_tpot_ms), (Some("{}"), Some(3), Some(1500.0), Some(80.0)));
        assert_eq!(t.hops.as_ref().map(Vec::len), Some(2));
        assert_eq!((o.parallel, o.timeout_s, &o.page), (1, DEFAULT_TIMEOUT_S, &PageSource::Bundle(None)));
    }

    #[test]
    fn the_page_and_the_driver() {
        let o = check("--url http://h/x --page http://p.example/ss/ --webdriver http://grid:4444/wd/hub --parallel 4 --share-key");
        assert_eq!(o.page, PageSource::Url("http://p.example/ss/".into()));
        assert_eq!(o.webdriver.as_deref(), Some("http://grid:4444/wd/hub/"));
        assert!(o.share_key && o.parallel == 4);
        assert_eq!(check("--targets t.txt --bundle d").page, PageSource::Bundle(Some("d".into())));
    }

    #[test]
    fn help_and_version_win() {
        assert_eq!(parse(&args("--url x --help")), Ok(Command::Help));
        assert_eq!(parse(&args("-V")), Ok(Command::Version));
    }

    #[test]
    fn every_mistake_names_its_flag() {
        let cases = [
            ("", "nothing to check"),
            ("--url", "--url needs a value"),
            ("--url a --url b", "--url is given twice"),
            ("--url http://h/ --targets t", "--url and --targets"),
            ("--url http://h/ --bogus 1", "unknown option: --bogus"),
            ("--url http://h/ stray", "unexpected argument"),
            ("--url http://h/ --max-ttft-ms soon", "--max-ttft-ms: not a time"),
            ("--url http://h/ --parallel 0", "--parallel:"),
            ("--url http://h/ --timeout-s -1", "--timeout-s:"),
            ("--url http://h/ --expect fast", "--expect: not a verdict"),
            ("--url http://h/ --repeat x", "--repeat:"),
            ("--url http://h/ --page-param novalue", "--page-param: expected KEY=VALUE"),
            ("--url http://h/ --page ftp://x", "--page: not an http(s) URL"),
            ("--url http://h/ --webdriver https://grid/", "https is not supported"),
            ("--url http://h/ --bundle d --page http://p/", "--bundle and --page"),
            ("--url http://h/ --body @/no/such/file", "--body: cannot read"),
            ("--url http://h/ --share-key=yes", "--share-key takes no value"),
        ];
        for (text, expected) in cases {
            let args: Vec<String> = if text.is_empty() { Vec::new() } else { args(text) };
            let err = parse(&args).unwrap_err();
            assert!(err.contains(expected), "{text}: {err}");
        }
    }
}
