//! The request form: exact URL/method/body or the OpenAI-style preset, extra headers, an API key that
//! never leaves the page's memory, time-outs, and Run/Cancel.

use leptos::prelude::*;
use super::erased::{effect, show_or, show_when};
use super::parts::{form_advice_panel, model_in_body, plan_campaign};
use super::split::ready_now;
use streamscope_core::config::page_config::{PageConfig, RequestMode, TimeoutsSeconds, MAX_REPEAT};
use streamscope_core::config::presets::ApiPreset;
use streamscope_core::decimal::{format_decimal, parse_decimal};
use streamscope_core::i18n::keys::UiFormKey;
use streamscope_core::i18n::{Lang, Text};

use super::lang::{use_lang, word};
use super::session::{CampaignPlan, Session};
use super::triage_hints::{suggestions, url_checks, UrlChecks};
use streamscope_core::config::page_config::{
    parse_hop_labels, parse_hops, parse_levels, CampaignKind, DEFAULT_ROUNDS_PER_LEVEL, MAX_ROUNDS_PER_LEVEL,
};
use streamscope_core::report::campaign::{pair_labels, CompareSetup, Layout, RunTag};
use streamscope_core::report::hops::{hop_labels, HopsSetup};
use streamscope_core::report::sweep::SweepSetup;
use streamscope_core::report::compare::{schedule, Side, Subject};
use crate::net::{RunSpec, Timeouts};
use streamscope_core::secrets::{is_credential_header, origin, redact_url, Secret};

/// Model ids offered as one-click picks after a `model_not_found` (the rest are counted).
const MAX_MODEL_PICKS: usize = 40;

/// The form's fields as signals (`Copy`).
#[derive(Clone, Copy)]
pub struct FormState {
    mode: RwSignal<RequestMode>,
    url: RwSignal<String>,
    method: RwSignal<String>,
    body: RwSignal<String>,
    preset: RwSignal<ApiPreset>,
    base: RwSignal<String>,
    model: RwSignal<String>,
    prompt: RwSignal<String>,
    max_tokens: RwSignal<String>,
    /// Sent in the API's key header ([`ApiPreset::headers`]); never put in the URL, storage or the report.
    api_key: RwSignal<String>,
    /// Extra request headers, one `Name: value` per line.
    extra_headers: RwSignal<String>,
    /// Second URL to compare with (exact mode).
    vs_url: RwSignal<String>,
    /// Second model to compare with (preset).
    vs_model: RwSignal<String>,
    /// Runs per target.
    repeat: RwSignal<String>,
    /// Send A and B of a round at the same time.
    at_once: RwSignal<bool>,
    /// Send the key and credential headers to a side B on another origin too. Form state only, never
    /// read from the page's URL: a crafted link cannot route the key to a third server.
    share_key_b: RwSignal<bool>,
    /// Sweep levels (`1,2,4,8`).
    concurrency: RwSignal<String>,
    /// Rounds per sweep level.
    per_level: RwSignal<String>,
    /// Hop URLs, one per line.
    hops: RwSignal<String>,
    /// Hop names, comma-separated.
    hop_labels: RwSignal<String>,
    /// The language chosen by the link or the switcher (`None`: the browser's).
    lang: RwSignal<Option<Lang>>,
    headers_s: RwSignal<String>,
    first_byte_s: RwSignal<String>,
    idle_s: RwSignal<String>,
    total_s: RwSignal<String>,
}

impl FormState {
    /// The form filled from a page configuration.
    pub fn new(c: PageConfig) -> FormState {
        // Not `format!("{v}")`: float formatting would be 8 KB of the main module (core::decimal). A
        // time-out is always a short decimal (read by `parse_decimal`, or a default).
        let s = |v: f64| RwSignal::new(format_decimal(v).unwrap_or_default());
        FormState {
            mode: RwSignal::new(c.mode),
            url: RwSignal::new(c.url),
            method: RwSignal::new(c.method),
            body: RwSignal::new(c.body),
            preset: RwSignal::new(c.preset),
            base: RwSignal::new(c.base),
            model: RwSignal::new(c.model),
            prompt: RwSignal::new(c.prompt),
            max_tokens: RwSignal::new(c.max_tokens.to_string()),
            api_key: RwSignal::new(String::new()),
            extra_headers: RwSignal::new(String::new()),
            vs_url: RwSignal::new(c.vs_url.unwrap_or_default()),
            vs_model: RwSignal::new(c.vs_model.unwrap_or_default()),
            repeat: RwSignal::new(c.repeat.to_string()),
            at_once: RwSignal::new(c.at_once),
            share_key_b: RwSignal::new(false),
            concurrency: RwSignal::new(c.concurrency.iter().map(u32::to_string).collect::<Vec<_>>().join(",")),
            per_level: RwSignal::new(c.per_level.to_string()),
            hops: RwSignal::new(c.hops.join("\n")),
            hop_labels: RwSignal::new(c.hop_labels.join(", ")),
            lang: RwSignal::new(c.lang),
            headers_s: s(c.timeouts_s.headers_s),
            first_byte_s: s(c.timeouts_s.first_byte_s),
            idle_s: s(c.timeouts_s.idle_s),
            total_s: s(c.timeouts_s.total_s),
        }
    }

    /// The configuration the form describes now (untracked read; no API key, no header values).
    pub fn config(&self) -> PageConfig {
        // Not `str::parse`: its float reader would be 14 KB of the main module (core::decimal).
        let secs = |sig: RwSignal<String>| parse_decimal(sig.get_untracked().trim()).unwrap_or(0.0);
        PageConfig {
            mode: self.mode.get_untracked(),
            url: self.url.get_untracked().trim().to_string(),
            method: self.method.get_untracked().trim().to_ascii_uppercase(),
            body: self.body.get_untracked(),
            preset: self.preset.get_untracked(),
            base: self.base.get_untracked(),
            model: self.model.get_untracked().trim().to_string(),
            prompt: self.prompt.get_untracked(),
            max_tokens: self.max_tokens.get_untracked().trim().parse().unwrap_or(streamscope_core::config::page_config::DEFAULT_MAX_TOKENS),
            run_on_load: false,
            vs_url: Some(self.vs_url.get_untracked().trim().to_string()).filter(|u| !u.is_empty()),
            vs_model: Some(self.vs_model.get_untracked().trim().to_string()).filter(|m| !m.is_empty()),
            repeat: self.repeat.get_untracked().trim().parse::<usize>().unwrap_or(1).clamp(1, MAX_REPEAT),
            at_once: self.at_once.get_untracked(),
            timeouts_s: TimeoutsSeconds {
                headers_s: secs(self.headers_s),
                first_byte_s: secs(self.first_byte_s),
                idle_s: secs(self.idle_s),
                total_s: secs(self.total_s),
            },
            concurrency: parse_levels(&self.concurrency.get_untracked()),
            per_level: self.per_level.get_untracked().trim().parse::<u32>().unwrap_or(DEFAULT_ROUNDS_PER_LEVEL).clamp(1, MAX_ROUNDS_PER_LEVEL),
            hops: parse_hops(&self.hops.get_untracked()),
            hop_labels: parse_hop_labels(&self.hop_labels.get_untracked()),
            lang: self.lang.get_untracked(),
        }
    }

    /// What Run measures, read from the form now (untracked).
    pub fn run_request(&self) -> RunRequest {
        RunRequest {
            config: self.config(),
            api_key: Secret::new(self.api_key.get_untracked()),
            extra_headers: Secret::new(self.extra_headers.get_untracked()),
            share_key_b: self.share_key_b.get_untracked(),
        }
    }

    /// The language choice, shared with the page's [`super::lang::UiLang`].
    pub fn lang_choice(&self) -> RwSignal<Option<Lang>> {
        self.lang
    }
}

/// Extra headers from `Name: value` lines; blank lines and lines without a colon are skipped.
fn parse_headers(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|line| line.split_once(':'))
        .map(|(n, v)| (n.trim().to_string(), v.trim_start().to_string()))
        .filter(|(n, _)| !n.is_empty())
        .collect()
}

/// Whether side B of the form's comparison, or a hop of its ladder, is on another origin than the main
/// request (the key then needs the user's consent to go there).
fn others_on_another_origin(config: &PageConfig) -> bool {
    let (_, url_a) = config.target();
    let b_elsewhere = config.target_b().is_some_and(|url_b| origin(&url_a) != origin(&url_b));
    let hop_elsewhere = (0..config.hops.len())
        .filter_map(|i| config.target_at_hop(i))
        .any(|url| origin(&url_a) != origin(&url));
    b_elsewhere || hop_elsewhere
}

/// What one press of Run measures, as the form said it at the click: its configuration, and what is kept
/// out of the configuration (the key and the extra headers, secrets; whether side B may have them). The
/// runs are planned from it ([`plan_from_form`]) with code that comes after the page (`parts::campaign_plan`).
pub struct RunRequest {
    /// The configuration (no key, no header value).
    pub config: PageConfig,
    api_key: Secret,
    extra_headers: Secret,
    share_key_b: bool,
}

/// How the specs of a press of Run are made from request lines: the headers (a credential header goes to
/// another origin than the main request's only when the user ticked it), the time-outs, and whether the
/// key has whitespace around it.
struct SpecMaker {
    headers: Vec<(String, Secret)>,
    url_a: String,
    share: bool,
    timeouts: Timeouts,
    key_has_whitespace: bool,
}

impl SpecMaker {
    /// The form's headers and key as the preset (or an exact request) sends them, for this request.
    fn of(request: &RunRequest) -> SpecMaker {
        let config = &request.config;
        let mut headers = parse_headers(request.extra_headers.expose());
        let key = request.api_key.expose();
        // The preset knows how its API wants the key; an exact request sends it as a bearer token (Azure
        // OpenAI's hosts, in an `api-key` header).
        let api = if config.mode == RequestMode::Preset { config.preset } else { ApiPreset::OpenaiChat };
        let (_, url_a, _) = config.request();
        headers.extend(api.headers(key, &url_a));
        let t = config.timeouts_s;
        SpecMaker {
            headers: headers.into_iter().map(|(n, v)| (n, Secret::new(v))).collect(),
            url_a,
            share: request.share_key_b,
            timeouts: Timeouts {
                headers_ms: TimeoutsSeconds::limit_ms(t.headers_s),
                first_byte_ms: TimeoutsSeconds::limit_ms(t.first_byte_s),
                idle_ms: TimeoutsSeconds::limit_ms(t.idle_s),
                total_ms: TimeoutsSeconds::limit_ms(t.total_s),
            },
            key_has_whitespace: key.trim() != key,
        }
    }

    /// The spec of one request line (method, URL, body).
    fn spec(&self, (method, url, body): RequestLine) -> RunSpec {
        // A target on another origin (side B, a hop) gets no key and no credential header unless the user
        // ticked it.
        let headers = if origin(&url) != origin(&self.url_a) && !self.share {
            self.headers.iter().filter(|(n, _)| !is_credential_header(n)).cloned().collect()
        } else {
            self.headers.clone()
        };
        RunSpec { headers, url, method, body, timeouts: self.timeouts, key_has_whitespace: self.key_has_whitespace }
    }
}

/// One request line: method, URL, body.
pub type RequestLine = (String, String, Option<String>);

/// A campaign's rounds as indices into its request lines (the runs of a round start together), and how
/// to summarise them.
pub type CampaignRounds = (Vec<Vec<(RunTag, usize)>>, Layout);

/// The runs the form described, in rounds, and how to summarise them. The request lines are made here;
/// the repeats of one request are planned here too, and a comparison, a sweep or a ladder by
/// [`plan_campaign_rounds`], whose code is the `campaign` chunk's (`parts::plan_campaign`; fetched before
/// such a campaign starts). `None` when that code is missing.
pub fn plan_from_form(request: &RunRequest) -> Option<CampaignPlan> {
    let config = &request.config;
    let kind = config.campaign_kind();
    let lines: Vec<RequestLine> = match kind {
        CampaignKind::Hops => (0..config.hops.len()).filter_map(|i| config.request_at_hop(i)).collect(),
        CampaignKind::Compare => {
            let a = config.request();
            let b = config.request_b().unwrap_or_else(|| a.clone());
            vec![a, b]
        }
        CampaignKind::Sweep | CampaignKind::Runs => vec![config.request()],
    };
    let (planned, layout) = if kind == CampaignKind::Runs {
        repeats(config)
    } else {
        ready_now(plan_campaign(config, &lines)).and_then(Result::ok)?
    };
    let specs = SpecMaker::of(request);
    let made: Vec<RunSpec> = lines.into_iter().map(|line| specs.spec(line)).collect();
    let mut rounds = Vec::with_capacity(planned.len());
    for round in planned {
        rounds.push(round.into_iter().filter_map(|(tag, line)| Some((tag, made.get(line)?.clone()))).collect());
    }
    Some(CampaignPlan { rounds, layout })
}

/// The rounds of a single request's repeats, one run each.
fn repeats(config: &PageConfig) -> CampaignRounds {
    ((0..config.repeat).map(|_| vec![(RunTag::default(), 0)]).collect(), Layout::Runs)
}

/// The rounds of a comparison (`lines`: A, B; run A, B, A, B … or A and B together), a sweep (`lines`: the
/// one request; a level's streams together) or a ladder (`lines`: each hop's; hop 1, 2, … repeated), and
/// how to summarise them.
pub fn plan_campaign_rounds(config: &PageConfig, lines: &[RequestLine]) -> CampaignRounds {
    match config.campaign_kind() {
        CampaignKind::Hops => {
            let urls: Vec<String> = lines.iter().map(|(_, url, _)| redact_url(url).into_owned()).collect();
            let mut labels = hop_labels(&urls);
            for (label, own) in labels.iter_mut().zip(&config.hop_labels) {
                if !own.trim().is_empty() {
                    *label = own.trim().to_string();
                }
            }
            let mut rounds = Vec::new();
            for _ in 0..config.repeat {
                for i in 0..lines.len() {
                    rounds.push(vec![(RunTag { side: Side::A, group: i as u32 }, i)]);
                }
            }
            (rounds, Layout::Hops(HopsSetup { urls, labels }))
        }
        CampaignKind::Sweep => {
            let mut rounds = Vec::new();
            for &level in &config.concurrency {
                let tag = RunTag { side: Side::A, group: level };
                for _ in 0..config.per_level {
                    rounds.push((0..level).map(|_| (tag, 0)).collect());
                }
            }
            let levels = config.concurrency.to_vec();
            (rounds, Layout::Sweep(SweepSetup { levels, per_level: config.per_level }))
        }
        CampaignKind::Compare => {
            let setup = match (&config.mode, lines) {
                (RequestMode::Exact, [a, b, ..]) => {
                    let (label_a, label_b) = pair_labels(&redact_url(&a.1), &redact_url(&b.1));
                    CompareSetup { subject: Subject::Path, label_a, label_b }
                }
                _ => CompareSetup {
                    subject: Subject::Model,
                    label_a: config.model.clone(),
                    label_b: config.vs_model.clone().unwrap_or_default(),
                },
            };
            let runs: Vec<(RunTag, usize)> =
                schedule(config.repeat, true).iter().map(|&side| (RunTag { side, group: 0 }, usize::from(side == Side::B))).collect();
            // One run a round, or A and B together.
            let mut rounds: Vec<Vec<(RunTag, usize)>> = Vec::new();
            for (i, &run) in runs.iter().enumerate() {
                match rounds.last_mut() {
                    Some(round) if config.at_once && i % 2 == 1 => round.push(run),
                    _ => rounds.push(vec![run]),
                }
            }
            (rounds, Layout::Compare(setup))
        }
        CampaignKind::Runs => repeats(config),
    }
}

/// What the form calls a preset (its API's own names kept).
fn preset_label(p: ApiPreset) -> UiFormKey {
    match p {
        ApiPreset::OpenaiChat => UiFormKey::PresetOpenaiChat,
        ApiPreset::OpenaiResponses => UiFormKey::PresetOpenaiResponses,
        ApiPreset::Anthropic => UiFormKey::PresetAnthropic,
        ApiPreset::Ollama => UiFormKey::PresetOllama,
        ApiPreset::Gemini => UiFormKey::PresetGemini,
    }
}

/// A labelled single-line input bound to a signal.
#[component]
fn Field(
    label: UiFormKey,
    testid: &'static str,
    value: RwSignal<String>,
    #[prop(optional)] kind: Option<&'static str>,
    #[prop(optional)] wide: bool,
) -> impl IntoView {
    view! {
        <label class="field" class:wide=wide>
            <span>{word(label)}</span>
            <input
                type=kind.unwrap_or("text")
                data-testid=testid
                autocomplete="off"
                spellcheck="false"
                prop:value=move || value.get()
                on:input=move |ev| value.set(event_target_value(&ev))
            />
        </label>
    }
}

/// A labelled checkbox bound to a signal.
#[component]
fn Check(label: UiFormKey, testid: &'static str, value: RwSignal<bool>) -> impl IntoView {
    view! {
        <label class="field check">
            <input
                type="checkbox"
                data-testid=testid
                prop:checked=move || value.get()
                on:change=move |ev| value.set(event_target_checked(&ev))
            />
            <span>{word(label)}</span>
        </label>
    }
}

/// A labelled multi-line input bound to a signal.
#[component]
fn Area(label: UiFormKey, testid: &'static str, value: RwSignal<String>, rows: u32) -> impl IntoView {
    view! {
        <label class="field wide">
            <span>{word(label)}</span>
            <textarea
                rows=rows
                data-testid=testid
                spellcheck="false"
                prop:value=move || value.get()
                on:input=move |ev| value.set(event_target_value(&ev))
            ></textarea>
        </label>
    }
}

/// The request form with Run and Cancel.
#[component]
pub fn RequestForm(form: FormState, session: Session) -> impl IntoView {
    let preset = move || form.mode.get() == RequestMode::Preset;
    let final_request = move || {
        // Tracks every field so the exact request line is always current.
        let _ = (form.url.get(), form.method.get(), form.body.get(), form.base.get(), form.model.get());
        let _ = (form.mode.get(), form.prompt.get(), form.max_tokens.get(), form.preset.get());
        let (method, url) = form.config().target();
        format!("{method} {}", redact_url(&url))
    };
    let carries_credential = move || {
        let _ = (form.url.get(), form.base.get(), form.vs_url.get(), form.mode.get(), form.hops.get());
        form.config().carries_credential()
    };
    let b_elsewhere = move || {
        let _ = (form.url.get(), form.vs_url.get(), form.base.get(), form.mode.get(), form.vs_model.get(), form.hops.get());
        others_on_another_origin(&form.config())
    };
    let run = move |_| {
        session.start_campaign(form.run_request());
    };
    // User Timing mark `streamscope:ready` once the form is mounted with Run enabled (README, automation contract).
    effect(move || if !untrack(|| session.running()) { let _ = window().performance().map(|p| p.mark("streamscope:ready")); });
    view! {
        <section class="card form" aria-label=word(UiFormKey::RequestAria)>
            <div class="tabs" role="tablist">
                <button
                    role="tab"
                    data-testid="mode-preset"
                    class:active=preset
                    on:click=move |_| form.mode.set(RequestMode::Preset)
                >{word(UiFormKey::ModePreset)}</button>
                <button
                    role="tab"
                    data-testid="mode-exact"
                    class:active=move || !preset()
                    on:click=move |_| form.mode.set(RequestMode::Exact)
                >{word(UiFormKey::ModeExact)}</button>
            </div>
            {show_or(preset, move || view! {
                <div class="grid">
                    <label class="field">
                        <span>{word(UiFormKey::Api)}</span>
                        <select
                            data-testid="input-preset"
                            on:change=move |ev| {
                                if let Some(p) = ApiPreset::from_name(&event_target_value(&ev)) {
                                    form.preset.set(p);
                                }
                            }
                        >
                            {ApiPreset::ALL.into_iter().map(|p| view! {
                                <option value=p.name() selected=move || form.preset.get() == p>{word(preset_label(p))}</option>
                            }).collect_view()}
                        </select>
                    </label>
                    <Field label=UiFormKey::Base testid="input-base" value=form.base wide=true />
                    <Field label=UiFormKey::Model testid="input-model" value=form.model />
                    <Field label=UiFormKey::MaxTokens testid="input-max-tokens" value=form.max_tokens kind="number" />
                    <Area label=UiFormKey::Prompt testid="input-prompt" value=form.prompt rows=2 />
                    <Field label=UiFormKey::VsModel testid="input-vs-model" value=form.vs_model />
                    <Field label=UiFormKey::Repeat testid="input-repeat" value=form.repeat kind="number" />
                    <Check label=UiFormKey::AtOnce testid="input-at-once" value=form.at_once />
                </div>
            }.into_any(), move || view! {
                <div class="grid">
                    <Field label=UiFormKey::Url testid="input-url" value=form.url wide=true />
                    <label class="field narrow">
                        <span>{word(UiFormKey::Method)}</span>
                        <select
                            data-testid="input-method"
                            on:change=move |ev| form.method.set(event_target_value(&ev))
                        >
                            // `selected` per option: a select's value set before its options exist is lost.
                            {["GET", "POST", "PUT"].into_iter().map(|m| view! {
                                <option value=m selected=move || form.method.get() == m>{m}</option>
                            }).collect_view()}
                        </select>
                    </label>
                    <Area label=UiFormKey::Body testid="input-body" value=form.body rows=3 />
                    <Field label=UiFormKey::VsUrl testid="input-vs" value=form.vs_url wide=true />
                    <Field label=UiFormKey::Repeat testid="input-repeat" value=form.repeat kind="number" />
                    <Check label=UiFormKey::AtOnce testid="input-at-once" value=form.at_once />
                </div>
            }.into_any())}
            <details class="more">
                <summary data-testid="more-campaign">{word(UiFormKey::MoreCampaign)}</summary>
                <div class="grid">
                    <Field label=UiFormKey::Concurrency testid="input-concurrency" value=form.concurrency wide=true />
                    <Field label=UiFormKey::PerLevel testid="input-per-level" value=form.per_level kind="number" />
                    <Area label=UiFormKey::Hops testid="input-hops" value=form.hops rows=3 />
                    <Field label=UiFormKey::HopLabels testid="input-hop-labels" value=form.hop_labels wide=true />
                </div>
            </details>
            <details class="more">
                <summary data-testid="more-options">{word(UiFormKey::MoreOptions)}</summary>
                <div class="grid">
                    <Field label=UiFormKey::ApiKey testid="input-api-key" value=form.api_key kind="password" />
                    <Area label=UiFormKey::ExtraHeaders testid="input-headers" value=form.extra_headers rows=2 />
                    <Field label=UiFormKey::HeadersTimeout testid="input-headers-timeout" value=form.headers_s kind="number" />
                    <Field label=UiFormKey::FirstByteTimeout testid="input-first-byte-timeout" value=form.first_byte_s kind="number" />
                    <Field label=UiFormKey::IdleTimeout testid="input-idle-timeout" value=form.idle_s kind="number" />
                    <Field label=UiFormKey::TotalTimeout testid="input-total-timeout" value=form.total_s kind="number" />
                </div>
            </details>
            <div class="actions">
                <code class="request-line" data-testid="request-line">{final_request}</code>
                <button class="primary" data-testid="run" on:click=run disabled=move || session.running()>{word(UiFormKey::Run)}</button>
                <button data-testid="cancel" on:click=move |_| session.cancel() disabled=move || !session.running()>{word(UiFormKey::Cancel)}</button>
            </div>
            {show_when(carries_credential, move || view! {
                <p class="url-credential sev-warning" data-testid="url-credential-warning">
                    {word(UiFormKey::UrlCredentialWarning)}
                </p>
            }.into_any())}
            {show_when(b_elsewhere, move || view! {
                <div class="share-key" data-testid="share-key-note">
                    <Check label=UiFormKey::ShareKeyB testid="share-key-b" value=form.share_key_b />
                </div>
            }.into_any())}
            // The URL checks and the last run's one-click fixes: a part of their own, after the page.
            {form_advice_panel(form, session)}
            {show_when(move || session.start_error.get().is_some(), move || view! {
                <p class="error" data-testid="start-error">{move || session.start_error.get().map(|t| t.render(use_lang())).unwrap_or_default()}</p>
            }.into_any())}
        </section>
    }
}

/// Under the request line: the URL checks while typing (before anything is sent) and the one-click fixes
/// the last failed run suggests. A part that comes after the page (`parts::form_advice_panel`): the checks,
/// their words (`en.txt`) and the fixes are no code or words the main module carries (issue 13); they show
/// once the part and the words are here, a few ms after the form on loopback.
#[component]
pub fn FormAdvice(form: FormState, session: Session) -> impl IntoView {
    let checks = Signal::derive(move || {
        let _ = (form.url.get(), form.base.get(), form.mode.get(), form.preset.get(), form.model.get());
        let config = form.config();
        let (_, url, _) = config.request();
        let base = redact_url(&config.base);
        url_checks(&redact_url(&url), (config.mode == RequestMode::Preset).then_some(base.as_ref()))
    });
    // The checks' words are English's file's: shown once it is installed (tracked through the language).
    let words_here = move || {
        let _ = use_lang();
        streamscope_core::i18n::is_available(Lang::En)
    };
    let hints = Signal::derive(move || suggestions(session));
    let use_base = move |_| {
        if let Some((base, url)) = hints.get_untracked().base {
            match form.mode.get_untracked() {
                RequestMode::Preset => form.base.set(base),
                RequestMode::Exact => form.url.set(url),
            }
        }
    };
    view! {
        {show_when(words_here, move || view! {
            <UrlChecks checks=checks />
        }.into_any())}
        {show_when(move || hints.with(|h| h.base.is_some() || !h.models.is_empty()), move || view! {
            <div class="suggestions" data-testid="suggestions">
                {move || hints.get().base.map(|(base, _)| view! {
                    <button data-testid="use-suggested-base" on:click=use_base>{move || Text::msg(UiFormKey::UseBase).with("base", base.as_str()).render(use_lang())}</button>
                })}
                {show_when(move || hints.with(|h| !h.models.is_empty()), move || view! {
                    <span>{word(UiFormKey::ModelsListed)}</span>
                    // A server may list thousands: a button for the first few, the count for the rest.
                    {move || hints.with(|h| (h.models.len() > MAX_MODEL_PICKS).then(|| view! {
                        <span class="muted" data-testid="more-models">{Text::msg(UiFormKey::FirstModels).count("shown", MAX_MODEL_PICKS).count("total", h.models.len()).render(use_lang())}</span>
                    }))}
                    {move || hints.get().models.into_iter().take(MAX_MODEL_PICKS).map(|id| {
                        let pick = id.clone();
                        let testid = format!("pick-model-{id}");
                        view! {
                            <button class="model-pick" data-testid=testid on:click=move |_| {
                                // An exact request carries its model in the body; the preset in its field.
                                let (body, pick) = (form.body.get_untracked(), pick.clone());
                                leptos::task::spawn_local(async move {
                                    match model_in_body(body, pick.clone()).await {
                                        Ok(Some(body)) if form.mode.get_untracked() == RequestMode::Exact => form.body.set(body),
                                        _ => form.model.set(pick),
                                    }
                                });
                            }>{id}</button>
                        }
                    }).collect_view()}
                }.into_any())}
            </div>
        }.into_any())}
    }
}
