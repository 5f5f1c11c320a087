//! The built-in capabilities (`ccos.*`): arithmetic, text and data
//! helpers, confined file access, time, asking the user, and allow-listed
//! HTTP. All are provider `builtin`, trust `system`, local.
//!
//! [`manifests`] describes them; [`BuiltinExecutor`] runs them under a
//! [`BuiltinConfig`]; [`install`] registers both in a marketplace. They are
//! registered in code at every start and never persisted.

mod files;
mod manifests;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use rtfs::Value;

use crate::executor::{BoxFuture, CallError, CapabilityExecutor};
use crate::manifest::CapabilityManifest;
use crate::marketplace::{Marketplace, MarketplaceError};
use crate::prompt::{AskError, TerminalPrompter, UserPrompter};

pub use manifests::manifests;

/// Longest `ccos.time.sleep` (10 minutes).
pub const MAX_SLEEP_MS: i64 = 600_000;

/// How long a call waits by design (`ccos.time.sleep {:ms N}`: N ms), so
/// the host's per-call timeout does not cut short a wait the plan asked
/// for; the run's deadline still bounds it. `None` for every other call.
pub fn intended_wait(capability: &str, args: &[Value]) -> Option<Duration> {
    if capability != "ccos.time.sleep" {
        return None;
    }
    let [arg] = args else { return None };
    match lookup(arg.as_map()?, "ms")? {
        Value::Int(ms) if (0..=MAX_SLEEP_MS).contains(ms) => {
            Some(Duration::from_millis(ms.unsigned_abs()))
        }
        _ => None,
    }
}
/// Largest file `ccos.file.read` returns (16 MiB).
pub const MAX_READ_BYTES: u64 = 16 * 1024 * 1024;

/// What the built-ins may touch.
#[derive(Clone)]
pub struct BuiltinConfig {
    /// Directories file capabilities are confined to (default: the current
    /// directory). Relative paths resolve against the first root.
    pub file_roots: Vec<PathBuf>,
    /// Hosts `ccos.http.*` may contact (`host` or `host:port`; default:
    /// none, so every request is refused).
    pub http_allow_hosts: Vec<String>,
    /// Who answers `ccos.user.ask`.
    pub prompter: Arc<dyn UserPrompter>,
    /// Total timeout of one HTTP request.
    pub http_timeout: Duration,
}

impl Default for BuiltinConfig {
    fn default() -> Self {
        BuiltinConfig {
            file_roots: vec![PathBuf::from(".")],
            http_allow_hosts: vec![],
            prompter: Arc::new(TerminalPrompter),
            http_timeout: crate::http::DEFAULT_TIMEOUT,
        }
    }
}

/// Registers the built-in manifests (replacing older versions) and a
/// [`BuiltinExecutor`] with `config`.
pub fn install(mp: &Marketplace, config: BuiltinConfig) -> Result<(), MarketplaceError> {
    mp.replace_all(manifests())?;
    mp.register_executor(Arc::new(BuiltinExecutor::new(config)));
    Ok(())
}

/// Runs the `ccos.*` built-ins.
pub struct BuiltinExecutor {
    config: BuiltinConfig,
}

impl BuiltinExecutor {
    /// An executor with `config`.
    pub fn new(config: BuiltinConfig) -> BuiltinExecutor {
        BuiltinExecutor { config }
    }

    /// The configuration in force.
    pub fn config(&self) -> &BuiltinConfig {
        &self.config
    }
}

impl CapabilityExecutor for BuiltinExecutor {
    fn provider(&self) -> &'static str {
        "builtin"
    }

    fn call<'a>(
        &'a self,
        manifest: &'a CapabilityManifest,
        args: Vec<Value>,
    ) -> BoxFuture<'a, Result<Value, CallError>> {
        Box::pin(async move { self.dispatch(&manifest.id, args).await })
    }
}

impl BuiltinExecutor {
    async fn dispatch(&self, id: &str, args: Vec<Value>) -> Result<Value, CallError> {
        match id {
            "ccos.math.add" | "ccos.math.sub" | "ccos.math.mul" | "ccos.math.div" => {
                math(id, &args)
            }
            "ccos.echo" => {
                let a = Args::one_map(id, &args)?;
                Ok(Value::string(a.str("message")?))
            }
            "ccos.text.count_words" => {
                let t = Args::one_map(id, &args)?
                    .str("text")?
                    .split_whitespace()
                    .count();
                Ok(int(t))
            }
            "ccos.text.occurrences" => occurrences(id, &Args::one_map(id, &args)?).map(int),
            "ccos.text.count_lines" => {
                Ok(int(Args::one_map(id, &args)?.str("text")?.lines().count()))
            }
            "ccos.text.count_chars" => {
                Ok(int(Args::one_map(id, &args)?.str("text")?.chars().count()))
            }
            "ccos.text.upper" => Ok(Value::string(
                &Args::one_map(id, &args)?.str("text")?.to_uppercase(),
            )),
            "ccos.text.lower" => Ok(Value::string(
                &Args::one_map(id, &args)?.str("text")?.to_lowercase(),
            )),
            "ccos.text.split" => {
                let a = Args::one_map(id, &args)?;
                let text = a.str("text")?;
                let sep = a.str("separator")?;
                let parts: Vec<Value> = if sep.is_empty() {
                    text.chars()
                        .map(|c| Value::string(&c.to_string()))
                        .collect()
                } else if sep == "\n" {
                    // Into lines: a final newline ends the last line, it
                    // does not open an empty one (as `ccos.text.lines`).
                    text.lines().map(Value::string).collect()
                } else {
                    text.split(sep).map(Value::string).collect()
                };
                Ok(Value::vector(parts))
            }
            "ccos.data.count" => {
                let a = Args::one_map(id, &args)?;
                match a.value("items")? {
                    Value::Map(m) => Ok(int(m.len())),
                    v => match v.as_seq() {
                        Some(items) => Ok(int(items.len())),
                        None => Err(a.wrong("items", "a list or a map", v)),
                    },
                }
            }
            "ccos.text.lines" => Ok(Value::vector(
                Args::one_map(id, &args)?
                    .str("text")?
                    .lines()
                    .map(Value::string)
                    .collect(),
            )),
            "ccos.text.numbers" => {
                let text = Args::one_map(id, &args)?.str("text")?;
                Ok(Value::vector(numbers_in(id, text)?))
            }
            "ccos.text.join" => {
                let a = Args::one_map(id, &args)?;
                let items = a.seq("items")?;
                let sep = a.opt_str("separator")?.unwrap_or("");
                let parts: Vec<String> = items
                    .iter()
                    .map(|v| match v {
                        Value::Str(s) => s.to_string(),
                        other => other.to_string(),
                    })
                    .collect();
                Ok(Value::string(&parts.join(sep)))
            }
            "ccos.text.regex_find" => {
                let a = Args::one_map(id, &args)?;
                let text = a.str("text")?;
                let pattern = a.str("pattern")?;
                let re = regex::RegexBuilder::new(pattern)
                    .size_limit(10 * 1024 * 1024)
                    .build()
                    .map_err(|e| {
                        CallError::invalid(id, format!("invalid regex {pattern:?}: {e}"))
                    })?;
                Ok(Value::vector(
                    re.find_iter(text)
                        .map(|m| Value::string(m.as_str()))
                        .collect(),
                ))
            }
            "ccos.json.parse" => {
                let a = Args::one_map(id, &args)?;
                let text = a.str("text")?;
                let v =
                    rtfs::parse_json_str(text).map_err(|e| CallError::invalid(id, e.message))?;
                // "how many records are in nested.json": a single object
                // has entries, not records; counting them would answer.
                match a.opt_str("expect")? {
                    None => Ok(v),
                    Some("array") if v.as_seq().is_some() => Ok(v),
                    Some("object") if v.as_map().is_some() => Ok(v),
                    Some(kind @ ("array" | "object")) => Err(CallError::invalid(
                        id,
                        format!(
                            "the JSON holds {} {}, not {} {kind}{}",
                            article(json_kind(&v)),
                            json_kind(&v),
                            article(kind),
                            if kind == "array" {
                                " (a list of records)"
                            } else {
                                ""
                            }
                        ),
                    )),
                    Some(other) => {
                        Err(a.wrong("expect", "\"array\" or \"object\"", &Value::string(other)))
                    }
                }
            }
            "ccos.json.format" => {
                let a = Args::one_map(id, &args)?;
                let v = a.value("value")?;
                let pretty = a.opt_bool("pretty")?.unwrap_or(false);
                let j = rtfs::to_json(v).map_err(|e| CallError::invalid(id, e.message))?;
                let s = if pretty {
                    serde_json::to_string_pretty(&j)
                } else {
                    serde_json::to_string(&j)
                }
                .map_err(|e| CallError::failed(id, e.to_string()))?;
                Ok(Value::string(&s))
            }
            "ccos.data.filter" => data_filter(id, &Args::one_map(id, &args)?),
            "ccos.data.get" => data_get(id, &Args::one_map(id, &args)?),
            "ccos.data.related" => data_related(id, &Args::one_map(id, &args)?),
            "ccos.data.sort" => data_sort(id, &Args::one_map(id, &args)?),
            "ccos.data.nth" => {
                let a = Args::one_map(id, &args)?;
                let items = a.seq("items")?;
                let n = a.int("position")?;
                let len = i64::try_from(items.len()).unwrap_or(i64::MAX);
                let at = match n {
                    0 => {
                        return Err(CallError::invalid(
                            id,
                            ":position counts from 1 (the first) or from -1 (the last), never 0",
                        ));
                    }
                    n if n > 0 => n - 1,
                    n => len.saturating_add(n),
                };
                usize::try_from(at)
                    .ok()
                    .and_then(|i| items.get(i))
                    .cloned()
                    .ok_or_else(|| {
                        CallError::failed(
                            id,
                            format!(
                                "the list has {len} item{}, no item at position {n}",
                                if len == 1 { "" } else { "s" }
                            ),
                        )
                    })
            }
            "ccos.data.take" => {
                let a = Args::one_map(id, &args)?;
                let items = a.seq("items")?;
                let n = a.int("count")?;
                if n < 0 {
                    return Err(CallError::invalid(id, ":count must be 0 or more"));
                }
                let n = usize::try_from(n).unwrap_or(usize::MAX);
                Ok(Value::vector(items.iter().take(n).cloned().collect()))
            }
            "ccos.data.unique" => {
                let items = Args::one_map(id, &args)?.seq("items")?;
                let mut seen = std::collections::BTreeSet::new();
                Ok(Value::vector(
                    items
                        .iter()
                        .filter(|v| seen.insert((*v).clone()))
                        .cloned()
                        .collect(),
                ))
            }
            "ccos.data.max" | "ccos.data.min" => {
                let items = Args::one_map(id, &args)?.seq("items")?;
                no_order_of_maps(id, items)?;
                let numeric = all_numeric_texts(items.iter());
                // Some texts with digits but not all numbers ("$10",
                // "10 kg", "10" beside ""): text order would answer
                // wrongly, and no order is sure.
                if !numeric
                    && let Some(t) = items
                        .iter()
                        .find_map(|v| v.as_str().filter(|t| t.chars().any(|c| c.is_ascii_digit())))
                {
                    return Err(CallError::invalid(
                        id,
                        format!(
                            "the items are texts, some with numbers in them ({t:?}) but not all plain numbers: \
                             compare them as numbers (make them numbers) or as texts (ccos.data.sort)"
                        ),
                    ));
                }
                let cmp = |a: &&Value, b: &&Value| order(a, b, numeric);
                let pick = if id == "ccos.data.max" {
                    items.iter().max_by(cmp)
                } else {
                    items.iter().min_by(cmp)
                };
                pick.cloned()
                    .ok_or_else(|| CallError::invalid(id, ":items is empty: it has no extreme"))
            }
            "ccos.text.reverse" => Ok(Value::string(
                &Args::one_map(id, &args)?
                    .str("text")?
                    .chars()
                    .rev()
                    .collect::<String>(),
            )),
            "ccos.file.read" | "ccos.file.list" | "ccos.file.write" | "ccos.file.append"
            | "ccos.file.stat" => files::call(&self.config, id, &Args::one_map(id, &args)?),
            "ccos.time.now" => {
                let now = time::OffsetDateTime::now_utc()
                    .format(&time::format_description::well_known::Rfc3339)
                    .map_err(|e| CallError::failed(id, e.to_string()))?;
                Ok(Value::string(&now))
            }
            "ccos.time.sleep" => {
                let ms = Args::one_map(id, &args)?.int("ms")?;
                if !(0..=MAX_SLEEP_MS).contains(&ms) {
                    return Err(CallError::invalid(
                        id,
                        format!(":ms must be between 0 and {MAX_SLEEP_MS}, got {ms}"),
                    ));
                }
                tokio::time::sleep(Duration::from_millis(ms.unsigned_abs())).await;
                Ok(Value::Int(ms))
            }
            "ccos.user.ask" => {
                let a = Args::one_map(id, &args)?;
                let prompt = a.str("prompt")?.to_string();
                let name = a.opt_str("name")?.map(str::to_string);
                let prompter = self.config.prompter.clone();
                let p2 = prompt.clone();
                let n2 = name.clone();
                let answer = match tokio::runtime::Handle::try_current() {
                    Ok(h) => h
                        .spawn_blocking(move || prompter.ask_named(&p2, n2.as_deref()))
                        .await
                        .map_err(|e| CallError::failed(id, format!("prompt task failed: {e}")))?,
                    Err(_) => prompter.ask_named(&prompt, name.as_deref()),
                };
                match answer {
                    Ok(a) => Ok(Value::string(&a)),
                    Err(e @ AskError::NoAnswer(_)) => Err(CallError::refused(id, e.to_string())),
                    Err(e) => Err(CallError::failed(id, e.to_string())),
                }
            }
            "ccos.http.get" | "ccos.http.post" => self.http(id, &Args::one_map(id, &args)?).await,
            other => Err(CallError::NoExecutor {
                capability: other.to_string(),
                message: "not a built-in capability".into(),
            }),
        }
    }

    async fn http(&self, id: &str, a: &Args<'_>) -> Result<Value, CallError> {
        let url_text = a.str("url")?;
        let url = reqwest::Url::parse(url_text)
            .map_err(|e| CallError::invalid(id, format!("invalid URL {url_text:?}: {e}")))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(CallError::invalid(
                id,
                format!("unsupported URL scheme {}", url.scheme()),
            ));
        }
        let allow = crate::http::AllowList::new(&self.config.http_allow_hosts);
        allow.check(&url).map_err(|m| CallError::denied(id, m))?;
        let headers = crate::http::headers_from_value(a.opt_value("headers"))
            .map_err(|m| CallError::invalid(id, m))?;
        let client = crate::http::client(self.config.http_timeout, &allow)
            .map_err(|m| CallError::unavailable(id, m))?;
        let mut req = if id == "ccos.http.post" {
            client.post(url)
        } else {
            client.get(url)
        };
        let has_content_type = headers.contains_key(reqwest::header::CONTENT_TYPE);
        req = req.headers(headers);
        if id == "ccos.http.post" {
            match a.opt_value("body") {
                None | Some(Value::Nil) => {}
                Some(Value::Str(s)) => {
                    if !has_content_type {
                        req =
                            req.header(reqwest::header::CONTENT_TYPE, "text/plain; charset=utf-8");
                    }
                    req = req.body(s.to_string());
                }
                Some(v) => {
                    let j = rtfs::to_json(v).map_err(|e| CallError::invalid(id, e.message))?;
                    if !has_content_type {
                        req = req.header(reqwest::header::CONTENT_TYPE, "application/json");
                    }
                    req = req.body(j.to_string());
                }
            }
        }
        let resp = crate::http::send(req, crate::http::MAX_RESPONSE_BYTES)
            .await
            .map_err(|e| match e {
                crate::http::SendError::Denied(m) => CallError::denied(id, m),
                crate::http::SendError::Failed(m) => CallError::unavailable(id, m),
            })?;
        Ok(resp.to_value())
    }
}

/// The most numbers [`numbers_in`] returns: a bound on the list built
/// from a text (a 16 MiB file of digits would otherwise be millions).
const MAX_NUMBERS: usize = 1_000_000;

/// The standalone numbers of `text`, in order (`ccos.text.numbers`): a run
/// of digits with an optional fraction and exponent (`3`, `-1.5`, `.5`,
/// `+7`, `−2`, `-$40`, `1e3`), not touching a letter, a dash or another
/// number — "v2", "5cm", "2026-11-28", "--7", "10:30", "28/11/2026" and
/// the version "1.2.3" are no numbers. A sign counts only at the start
/// of a word. Commas between numbers separate them (`1,2,3`), but a comma
/// before a group of exactly three digits (`1,000`), a zero-led integer
/// (`000` of "1 000 000", `007`) and two numbers joined by a slash
/// (`3/4`: a fraction or a date) could be one number or another: the
/// text is refused, not guessed. An integer beyond 64 bits is an error.
fn numbers_in(id: &str, text: &str) -> Result<Vec<Value>, CallError> {
    // Byte offsets, no copy of the text (it may be 16 MiB): the character
    // at `k`, and the offset after it.
    let at = |k: usize| text.get(k..).and_then(|r| r.chars().next());
    let after = |k: usize| k + at(k).map_or(1, char::len_utf8);
    let is_sign = |c: Option<char>| matches!(c, Some('-' | '+' | '\u{2212}'));
    let is_currency = |c: Option<char>| matches!(c, Some('$' | '€' | '£'));
    let digit = |c: Option<char>| c.is_some_and(|c| c.is_ascii_digit());
    let ambiguous = |what: &str| {
        CallError::invalid(
            id,
            format!(
                "the text has {what}: a digit group or a code, not plainly a number; say which numbers to take"
            ),
        )
    };
    let mut out = vec![];
    let mut k = 0;
    while k < text.len() {
        let prev = text.get(..k).and_then(|r| r.chars().next_back());
        let boundary = !prev.is_some_and(|p| p.is_alphanumeric() || matches!(p, '.' | '_'));
        let (c0, c1) = (at(k), at(after(k)));
        // A sign, an optional currency sign, then a digit, at a word start.
        let signed = is_sign(c0)
            && boundary
            && !is_sign(prev)
            && (digit(c1) || (is_currency(c1) && digit(at(after(after(k))))));
        // ".5": a decimal written without its zero.
        let dot_digit = |k: usize| at(k) == Some('.') && digit(at(k + 1));
        let signed = signed || (is_sign(c0) && boundary && !is_sign(prev) && dot_digit(after(k)));
        let start_digit = (digit(c0) || dot_digit(k)) && boundary && !is_sign(prev);
        let currency = is_currency(c0) && digit(c1);
        if !(signed || start_digit || currency) {
            // A digit right after a sign that is no number's ("--7"),
            // or inside a word: skip the whole run of digits.
            if digit(c0) {
                while digit(at(k)) || at(k) == Some('.') {
                    k += 1;
                }
            } else {
                k = after(k);
            }
            continue;
        }
        let negative = signed && matches!(c0, Some('-' | '\u{2212}'));
        if signed {
            k = after(k);
        }
        if is_currency(at(k)) {
            k = after(k);
        }
        let from = k;
        while digit(at(k)) {
            k += 1;
        }
        let mut decimal = false;
        if at(k) == Some('.') && digit(at(k + 1)) {
            decimal = true;
            k += 1;
            while digit(at(k)) {
                k += 1;
            }
        }
        // "1e3", "2.5E-4": an exponent.
        if k > from && matches!(at(k), Some('e' | 'E')) {
            let exp_digits = if is_sign(at(k + 1)) && at(k + 1) != Some('\u{2212}') {
                k + 2
            } else {
                k + 1
            };
            if digit(at(exp_digits)) {
                decimal = true;
                k = exp_digits;
                while digit(at(k)) {
                    k += 1;
                }
            }
        }
        let digits = &text[from..k];
        // "3/4": a fraction or a date (the 3rd of April), not two numbers;
        // "28/11/2026" is a date.
        if at(k) == Some('/') && digit(at(k + 1)) && !decimal {
            let mut end = k + 1;
            while digit(at(end)) {
                end += 1;
            }
            // (A full stop after it ends the sentence.)
            let more = match at(end) {
                Some('.') => digit(at(end + 1)),
                Some(c) => c.is_alphanumeric() || matches!(c, '/' | '_' | '-'),
                None => false,
            };
            if !more {
                return Err(CallError::invalid(
                    id,
                    format!(
                        "the text has {}: a fraction or a date, not plainly a number; say which numbers to take",
                        &text[from..end]
                    ),
                ));
            }
        }
        // "1.2.3": a version; touching a letter, an underscore or a dash:
        // part of a word, no number.
        // "10:30", "28/11/2026": a time, a date, a fraction.
        let joined = matches!(at(k), Some('.' | ':' | '/')) && digit(at(k + 1));
        if joined || at(k).is_some_and(|c| c.is_alphabetic() || matches!(c, '_' | '-' | '\u{2212}'))
        {
            while at(k)
                .is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | ':' | '/'))
            {
                k = after(k);
            }
            continue;
        }
        if at(k) == Some(',')
            && (1..=3).contains(&digits.len())
            && !decimal
            && (k + 1..k + 4).all(|x| digit(at(x)))
            && !digit(at(k + 4))
        {
            return Err(ambiguous(&text[from..k + 4]));
        }
        if !decimal && digits.len() > 1 && digits.starts_with('0') {
            return Err(ambiguous(digits));
        }
        let v = if decimal {
            digits
                .parse::<f64>()
                .ok()
                .map(|f| Value::Float(if negative { -f } else { f }))
        } else {
            digits
                .parse::<i64>()
                .ok()
                .map(|n| Value::Int(if negative { -n } else { n }))
        };
        let Some(v) = v else {
            return Err(CallError::invalid(
                id,
                format!("the number {digits} is beyond 64-bit integers"),
            ));
        };
        if out.len() == MAX_NUMBERS {
            return Err(CallError::invalid(
                id,
                format!("the text has more than {MAX_NUMBERS} numbers"),
            ));
        }
        out.push(v);
    }
    Ok(out)
}

fn int(n: usize) -> Value {
    Value::Int(i64::try_from(n).unwrap_or(i64::MAX))
}

/// Positional arithmetic with RTFS semantics: checked integer overflow,
/// division by zero an error, non-divisible int/int gives a float.
fn math(id: &str, args: &[Value]) -> Result<Value, CallError> {
    let [a, b] = args else {
        return Err(CallError::invalid(
            id,
            format!("expects 2 numbers, got {} arguments", args.len()),
        ));
    };
    let num = |v: &Value| match v {
        Value::Int(_) | Value::Float(_) => Ok(v.clone()),
        other => Err(CallError::invalid(
            id,
            format!("expects numbers, got {} {other}", other.type_name()),
        )),
    };
    let (a, b) = (num(a)?, num(b)?);
    let overflow = || CallError::failed(id, "integer overflow (use floats for larger values)");
    let f = |v: &Value| match v {
        Value::Int(i) => *i as f64,
        Value::Float(x) => *x,
        _ => f64::NAN,
    };
    let op = id.rsplit('.').next().unwrap_or("");
    Ok(match (op, &a, &b) {
        ("add", Value::Int(x), Value::Int(y)) => {
            Value::Int(x.checked_add(*y).ok_or_else(overflow)?)
        }
        ("sub", Value::Int(x), Value::Int(y)) => {
            Value::Int(x.checked_sub(*y).ok_or_else(overflow)?)
        }
        ("mul", Value::Int(x), Value::Int(y)) => {
            Value::Int(x.checked_mul(*y).ok_or_else(overflow)?)
        }
        ("add", _, _) => Value::Float(f(&a) + f(&b)),
        ("sub", _, _) => Value::Float(f(&a) - f(&b)),
        ("mul", _, _) => Value::Float(f(&a) * f(&b)),
        ("div", _, _) => {
            if f(&b) == 0.0 {
                return Err(CallError::failed(id, "division by zero"));
            }
            match (&a, &b) {
                (Value::Int(x), Value::Int(y)) => match x.checked_rem(*y) {
                    Some(0) => Value::Int(x.checked_div(*y).ok_or_else(overflow)?),
                    Some(_) => Value::Float(*x as f64 / *y as f64),
                    None => return Err(overflow()),
                },
                _ => Value::Float(f(&a) / f(&b)),
            }
        }
        _ => return Err(CallError::failed(id, "unknown arithmetic operation")),
    })
}

fn data_filter(id: &str, a: &Args<'_>) -> Result<Value, CallError> {
    let items = a.seq("items")?;
    let equals = a.opt_value("equals");
    if let Some(candidates) = a.opt_value("key").and_then(Value::as_seq) {
        return filter_among(id, items, candidates, equals);
    }
    let key = a
        .opt_key_name("key")?
        .ok_or_else(|| CallError::invalid(id, "missing :key"))?;
    let mut out = Vec::new();
    let mut any_has_key = false;
    let mut first_map: Option<&rtfs::Map> = None;
    for (i, item) in items.iter().enumerate() {
        let m = item.as_map().ok_or_else(|| {
            CallError::invalid(id, format!("item {i} is a {}, not a map", item.type_name()))
        })?;
        first_map.get_or_insert(m);
        let v = lookup(m, &key);
        if v.is_some() {
            any_has_key = true;
        }
        let keep = match equals {
            Some(e) => v.is_some_and(|v| same_value(v, e)),
            None => v.is_some_and(Value::is_truthy),
        };
        if keep {
            out.push(item.clone());
        }
    }
    // No item has the key ("city" of records keyed "City"): an empty
    // answer would say that none matches.
    if let Some(m) = first_map
        && !any_has_key
    {
        return Err(CallError::invalid(
            id,
            format!("no item has :{key}: {}", keys_of(m)),
        ));
    }
    Ok(Value::vector(out))
}

/// How many times `:of` occurs in `:text` (case aside, without overlaps):
/// as a whole word (`:whole true`: no letter or digit on either side),
/// anywhere (`false`), or, unset, the one count when both agree — "an"
/// in "banana" is 0 as a word and 2 inside words, which the goal must
/// say.
fn occurrences(id: &str, a: &Args<'_>) -> Result<usize, CallError> {
    let text = a.str("text")?;
    // A number to count is its digits ("how many times does 7 appear").
    let of = match a.value("of")? {
        Value::Int(n) => n.to_string(),
        Value::Float(f) => f.to_string(),
        _ => a.str("of")?.to_string(),
    };
    if of.is_empty() {
        return Err(CallError::invalid(id, ":of is empty: say what to count"));
    }
    // Case aside: "the word the" counts "The" too, as a reader would.
    let (text, of) = (text.to_lowercase(), of.to_lowercase());
    let (text, of) = (text.as_str(), of.as_str());
    let anywhere = text.matches(of).count();
    let as_word = text
        .match_indices(of)
        .filter(|(at, m)| {
            let before = text[..*at].chars().next_back();
            let after = text[at + m.len()..].chars().next();
            // A boundary is only needed where `of` itself starts or ends
            // with a letter or digit ("C++" ends with none).
            let edge = |c: Option<char>, own: Option<char>| {
                !(own.is_some_and(char::is_alphanumeric) && c.is_some_and(char::is_alphanumeric))
            };
            edge(before, of.chars().next()) && edge(after, of.chars().next_back())
        })
        .count();
    match a.opt_bool("whole")? {
        Some(true) => Ok(as_word),
        Some(false) => Ok(anywhere),
        None if as_word == anywhere => Ok(anywhere),
        None => Err(CallError::invalid(
            id,
            format!(
                "{of:?} occurs {as_word} time(s) as a word and {anywhere} in all (inside other words too): say which (\"the word …\" or \"the letter …\"; :whole)"
            ),
        )),
    }
}

/// The value under `:key` of a map, or of each map of a list ("the port
/// in config.json", "the names in people.json"): see [`field_of`]. A
/// list item that is no map, or a map without the key, is an error (an
/// answer missing some records would look whole).
fn data_get(id: &str, a: &Args<'_>) -> Result<Value, CallError> {
    let data = a.value("data")?;
    let key = a
        .opt_key_name("key")?
        .ok_or_else(|| CallError::invalid(id, "missing :key"))?;
    if let Value::Map(m) = data {
        return Ok(field_of(id, m, &key, false)?.clone());
    }
    let Some(items) = data.as_seq() else {
        return Err(CallError::invalid(
            id,
            format!(
                ":data is a {}, not a map or a list of maps",
                data.type_name()
            ),
        ));
    };
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let m = item.as_map().ok_or_else(|| {
            CallError::invalid(id, format!("item {i} is a {}, not a map", item.type_name()))
        })?;
        let v = field_of(id, m, &key, true).map_err(|e| match e {
            CallError::InvalidArguments { message, .. } => {
                CallError::invalid(id, format!("item {i}: {message}"))
            }
            other => other,
        })?;
        out.push(v.clone());
    }
    Ok(Value::vector(out))
}

/// The other ends of the relations of one type that end (`:to`) or start
/// (`:from`) at an entity: "who works at Globex" over `{:from "Bob" :to
/// "Globex" :relationType "works_at"}` is `["Bob"]`. The keys holding the
/// ends and the type are given (`:from_key`, `:to_key`, `:type_key`).
/// Types and names compare by words, case and separators aside ("works
/// at" = `works_at`). "Nobody" is answered only when it is known: a type
/// no relation has, or an entity in no relation, is an error naming what
/// the relations hold.
fn data_related(id: &str, a: &Args<'_>) -> Result<Value, CallError> {
    let relations = a.seq("relations")?;
    let kind = a.str("type")?;
    let keys = [a.str("from_key")?, a.str("to_key")?, a.str("type_key")?];
    let (entity, given, other) = match (a.opt_str("from")?, a.opt_str("to")?) {
        (Some(e), None) => (e, keys[0], keys[1]),
        (None, Some(e)) => (e, keys[1], keys[0]),
        _ => {
            return Err(CallError::invalid(
                id,
                "give one of :from and :to (the entity at the known end)",
            ));
        }
    };
    let (kind_words, entity_words) = (relation_type_words(kind), entity_name(entity));
    if kind_words.is_empty() || entity_words.is_empty() {
        return Err(CallError::invalid(id, ":type and the entity need words"));
    }
    let mut types = std::collections::BTreeSet::new();
    let mut known = false;
    let mut out: Vec<Value> = vec![];
    for (i, r) in relations.iter().enumerate() {
        let m = r.as_map().ok_or_else(|| {
            CallError::invalid(
                id,
                format!("relation {i} is a {}, not a map", r.type_name()),
            )
        })?;
        let text = |key: &str| -> Result<&str, CallError> {
            lookup(m, key).and_then(Value::as_str).ok_or_else(|| {
                CallError::invalid(id, format!("relation {i} has no text under :{key}"))
            })
        };
        let (t, here, there) = (text(keys[2])?, text(given)?, text(other)?);
        types.insert(t.to_string());
        let at_entity = entity_name(here) == entity_words;
        known |= at_entity || entity_name(there) == entity_words;
        if at_entity && relation_type_words(t) == kind_words {
            let v = Value::string(there);
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    if !types.iter().any(|t| relation_type_words(t) == kind_words) {
        let listed: Vec<String> = types.iter().map(|t| format!("{t:?}")).collect();
        return Err(CallError::failed(
            id,
            format!(
                "no relation is of the type {kind:?}; the types are: {}",
                if listed.is_empty() {
                    "none (no relations)".to_string()
                } else {
                    listed.join(", ")
                }
            ),
        ));
    }
    if !known {
        return Err(CallError::failed(
            id,
            format!("{entity:?} is in no relation: whether it has any is not known"),
        ));
    }
    Ok(Value::vector(out))
}

/// A relation type's words, lower case: split at `_`, `-`, spaces and
/// a lower-case letter followed by a capital ("works_at" = "WORKS-AT" =
/// "worksAt" = "works at"). A type with any other character, or opening
/// or closing with a separator ("!works_at", "-works_at"), is its own
/// word, compared as written (case aside): never another type.
fn relation_type_words(t: &str) -> Vec<String> {
    let t = t.trim();
    let separator = |c: char| matches!(c, '_' | '-' | ' ');
    let plain = t.chars().all(|c| c.is_alphanumeric() || separator(c))
        && !t.starts_with(separator)
        && !t.ends_with(separator);
    if !plain {
        return vec![t.to_lowercase()];
    }
    let mut words: Vec<String> = vec![];
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in t.chars() {
        if (separator(c) || (c.is_uppercase() && prev_lower)) && !cur.is_empty() {
            words.push(std::mem::take(&mut cur));
        }
        if !separator(c) {
            cur.extend(c.to_lowercase());
        }
        prev_lower = c.is_lowercase();
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

/// An entity's name as compared: case and runs of spaces aside, every
/// other character kept ("C" is not "C++", "Go" not "Go!").
fn entity_name(t: &str) -> String {
    t.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The value of `m` under the key `key` names: as written, else ignoring
/// case and the separators between words ("app name" = `app_name` =
/// `appName`), else, for a record of a list (`plural`), a plural's
/// singular ("names" = `name`). Several keys so found, or none, is an
/// error naming the map's keys.
fn field_of<'m>(
    id: &str,
    m: &'m rtfs::Map,
    key: &str,
    plural: bool,
) -> Result<&'m Value, CallError> {
    if let Some(v) = lookup(m, key) {
        return Ok(v);
    }
    let want = key_norm(key);
    // "cities" = `city`, "boxes" = `box`, "tags" = `tag`; never a word
    // whose plural is its only form ("news" is no `new`, "sales" no
    // `sale`).
    let mut singulars: Vec<String> = vec![];
    if plural && !PLURAL_ONLY.contains(&want.as_str()) {
        if let Some(stem) = want.strip_suffix("ies") {
            singulars.push(format!("{stem}y"));
        }
        // "boxes", "buses", "churches": without "es"; "sizes", "houses":
        // without "s" (both tried; only a key the map has counts).
        if ["ches", "shes", "ses", "xes", "zes"]
            .iter()
            .any(|end| want.ends_with(end))
            && let Some(stem) = want.strip_suffix("es")
        {
            singulars.push(stem.to_string());
        }
        if !want.ends_with("ss")
            && !want.ends_with("us")
            && let Some(stem) = want.strip_suffix('s')
        {
            singulars.push(stem.to_string());
        }
    }
    let found: Vec<&Value> = m
        .iter()
        .filter(|(k, _)| {
            let n = key_norm(&key_text(k));
            !n.is_empty() && (n == want || singulars.contains(&n))
        })
        .map(|(_, v)| v)
        .collect();
    match found.as_slice() {
        [v] => Ok(v),
        [] => {
            // "database host": the `host` of the map under `database`.
            let words: Vec<&str> = key
                .split([' ', '.', '/'])
                .filter(|w| !w.is_empty())
                .collect();
            if let [outer, inner @ ..] = words.as_slice()
                && !inner.is_empty()
                && let Ok(Value::Map(nested)) = field_of(id, m, outer, false)
            {
                return field_of(id, nested, &inner.join(" "), false)
                    .map_err(|_| CallError::invalid(id, format!("no :{key}: {}", keys_of(m))));
            }
            Err(CallError::invalid(id, format!("no :{key}: {}", keys_of(m))))
        }
        _ => Err(CallError::invalid(
            id,
            format!("more than one key reads as :{key}: {}", keys_of(m)),
        )),
    }
}

/// A key as compared when the goal names it in its own words: case and
/// separators aside ("app name" = `app_name` = `appName`).
fn key_norm(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// A map key's text (`:city` and `"city"` are `city`).
fn key_text(k: &Value) -> String {
    match k {
        Value::Keyword(s) | Value::Str(s) => s.to_string(),
        other => other.to_string(),
    }
}

/// `c` without its accent, for the common Latin letters ("ü" → "u"); any
/// other character as it is.
fn unaccented(c: char) -> char {
    match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' => 'a',
        'ç' | 'ć' | 'č' => 'c',
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ę' | 'ě' => 'e',
        'ì' | 'í' | 'î' | 'ï' | 'ī' => 'i',
        'ñ' | 'ń' | 'ň' => 'n',
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' => 'o',
        'ù' | 'ú' | 'û' | 'ü' | 'ū' | 'ů' => 'u',
        'ý' | 'ÿ' => 'y',
        'ś' | 'š' => 's',
        'ź' | 'ż' | 'ž' => 'z',
        'ł' => 'l',
        'ř' => 'r',
        'ß' => 's',
        other => other,
    }
}

/// Nouns whose plural is their only form (or whose singular is another
/// word): never read as a key's singular.
const PLURAL_ONLY: &[&str] = &[
    "news",
    "goods",
    "clothes",
    "sales",
    "series",
    "species",
    "means",
    "thanks",
    "glasses",
    "savings",
    "earnings",
    "arms",
    "customs",
    "odds",
    "shorts",
    "pants",
    "stats",
    "physics",
    "economics",
    "politics",
    "lyrics",
    "headquarters",
    "premises",
    "belongings",
    "outskirts",
    "remains",
    "riches",
    "surroundings",
    "whereabouts",
    "manners",
    "minutes",
    "works",
    "details",
    "settings",
    "options",
    "credits",
    "terms",
    "items",
    "data",
];

/// A condition whose key the goal does not name but its relation narrows
/// ("live in Paris": one of `city`, `town`, `country`, …): the candidate
/// keys the maps have (case and separators aside). One: the condition's
/// key, which every map must have (a map without it would silently be
/// nobody); several: the one holding the value. None, or several holding
/// it, is an error: which one the goal means is a guess. Texts compare
/// case aside ("PARIS" lives in "Paris").
fn filter_among(
    id: &str,
    items: &[Value],
    candidates: &[Value],
    equals: Option<&Value>,
) -> Result<Value, CallError> {
    let Some(e) = equals else {
        return Err(CallError::invalid(id, "a list of keys needs :equals"));
    };
    let wanted: Vec<String> = candidates
        .iter()
        .map(|c| {
            c.as_str()
                .map(key_norm)
                .ok_or_else(|| CallError::invalid(id, format!(":key holds {c}, not a key name")))
        })
        .collect::<Result<_, _>>()?;
    let mut maps: Vec<&rtfs::Map> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        maps.push(item.as_map().ok_or_else(|| {
            CallError::invalid(id, format!("item {i} is a {}, not a map", item.type_name()))
        })?);
    }
    let Some(first) = maps.first() else {
        return Ok(Value::vector(Vec::new()));
    };
    // A place's words, case and punctuation aside ("Paris, Texas" =
    // "paris texas").
    let words = |t: &str| -> Vec<String> {
        t.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    let same = |v: &Value| match (v, e) {
        (Value::Str(x), Value::Str(y)) => words(x) == words(y),
        _ => same_value(v, e),
    };
    // One's words a run of the other's ("New York City", "New York"), or
    // the same but for accents ("Zurich", "Zürich"): no match, but
    // "nobody" would mislead.
    let near = |v: &Value| match (v, e) {
        (Value::Str(x), Value::Str(y)) => {
            let (a, b) = (words(x), words(y));
            let plain = |ws: &[String]| -> Vec<String> {
                ws.iter()
                    .map(|w| w.chars().map(unaccented).collect())
                    .collect()
            };
            if a != b && plain(&a) == plain(&b) {
                return true;
            }
            let (short, long) = if a.len() < b.len() {
                (&a, &b)
            } else {
                (&b, &a)
            };
            !short.is_empty()
                && short.len() < long.len()
                && long.windows(short.len()).any(|w| w == short.as_slice())
        }
        _ => false,
    };
    let present: std::collections::BTreeSet<String> = maps
        .iter()
        .flat_map(|m| m.keys())
        .map(key_text)
        .filter(|k| wanted.contains(&key_norm(k)))
        .collect();
    let names = |keys: &[&str]| {
        keys.iter()
            .map(|k| format!(":{k}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let key = match present.len() {
        0 => {
            return Err(CallError::invalid(
                id,
                format!(
                    "no key among {}: {}",
                    names(
                        &candidates
                            .iter()
                            .filter_map(Value::as_str)
                            .collect::<Vec<_>>()
                    ),
                    keys_of(first)
                ),
            ));
        }
        1 => present.iter().next().cloned().unwrap_or_default(),
        _ => {
            let holding: Vec<&String> = present
                .iter()
                .filter(|k| maps.iter().any(|m| lookup(m, k).is_some_and(same)))
                .collect();
            match holding.as_slice() {
                [] => {
                    // "Paris Texas": a `city` and a `state`, not one key.
                    if let Some((k, v)) = present.iter().find_map(|k| {
                        maps.iter()
                            .filter_map(|m| lookup(m, k))
                            .find(|v| near(v))
                            .map(|v| (k, v))
                    }) {
                        return Err(CallError::invalid(
                            id,
                            format!("no item holds {e}, but one's :{k} is {v}: say which"),
                        ));
                    }
                    return Ok(Value::vector(Vec::new()));
                }
                [k] => (*k).clone(),
                _ => {
                    return Err(CallError::invalid(
                        id,
                        format!(
                            "{e} is held under more than one key ({}): say which one",
                            names(&holding.iter().map(|k| k.as_str()).collect::<Vec<_>>())
                        ),
                    ));
                }
            }
        }
    };
    let mut out = Vec::new();
    for (i, (item, m)) in items.iter().zip(&maps).enumerate() {
        let v = lookup(m, &key).ok_or_else(|| {
            CallError::invalid(id, format!("item {i} has no :{key}: {}", keys_of(m)))
        })?;
        if same(v) {
            out.push(item.clone());
        }
    }
    if out.is_empty()
        && let Some(v) = maps
            .iter()
            .filter_map(|m| lookup(m, &key))
            .find(|v| near(v))
    {
        return Err(CallError::invalid(
            id,
            format!("no item's :{key} is {e}, but one is {v}: say which"),
        ));
    }
    Ok(Value::vector(out))
}

/// Equality as a person reading the data means it: numbers by value
/// (`34` = `34.0`), a text that spells a number equal to that number
/// (`"29"` = `29`, as [`data_sort`] orders them), a boolean to the text
/// spelling it (`true` = `"TRUE"`); anything else as written (`"Paris"`
/// ≠ `"paris"`).
fn same_value(a: &Value, b: &Value) -> bool {
    let number = |v: &Value| match v {
        Value::Float(f) => Some(*f),
        Value::Int(n) => Some(*n as f64),
        _ => None,
    };
    let boolean = |t: &str| match t.trim().to_ascii_lowercase().as_str() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    };
    match (a, b) {
        // Exact: two large integers are not equal because their floats are.
        (Value::Int(x), Value::Int(y)) => x == y,
        // `true` = `"true"` (a quoted "'true'" in a goal).
        (Value::Bool(x), Value::Str(t)) | (Value::Str(t), Value::Bool(x)) => boolean(t) == Some(*x),
        _ => match (number(a), number(b)) {
            (Some(x), Some(y)) => x == y,
            (Some(x), None) => text_number(b) == Some(x),
            (None, Some(y)) => text_number(a) == Some(y),
            (None, None) => a == b,
        },
    }
}

/// The JSON name of the kind of `v` ("array", "object", "string"…).
fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Map(_) => "object",
        Value::Nil => "null",
        Value::Bool(_) => "boolean",
        Value::Int(_) | Value::Float(_) => "number",
        Value::Str(_) => "string",
        _ if v.as_seq().is_some() => "array",
        _ => "value",
    }
}

/// "a" or "an" before `word`.
fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// "its keys are :a, :b" for an error about a missing key.
fn keys_of(m: &rtfs::Map) -> String {
    let keys: Vec<String> = m
        .keys()
        .map(|k| match k.as_str() {
            Some(s) => format!("{s:?}"),
            None => k.to_string(),
        })
        .collect();
    format!("its keys are {}", keys.join(", "))
}

/// Maps have no order of their own: ordering them by their first key
/// ("sort people.json" by `age`, alphabetically first) answers a question
/// nobody asked (attack trial). Refused unless a key is given.
fn no_order_of_maps(id: &str, items: &[Value]) -> Result<(), CallError> {
    if items.iter().any(|v| v.as_map().is_some()) {
        return Err(CallError::invalid(
            id,
            "the items are maps: say the key to order them by (:key)",
        ));
    }
    Ok(())
}

fn data_sort(id: &str, a: &Args<'_>) -> Result<Value, CallError> {
    let items = a.seq("items")?;
    let key = a.opt_key_name("key")?;
    let descending = a.opt_bool("descending")?.unwrap_or(false);
    let alphabetical = a.opt_bool("alphabetical")?.unwrap_or(false);
    let mut keyed: Vec<(Value, Value)> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let k = match &key {
            Some(k) => {
                let m = item.as_map().ok_or_else(|| {
                    CallError::invalid(id, format!("item {i} is a {}, not a map", item.type_name()))
                })?;
                // A record without the key has no place in the order
                // (first or last would be a guess; a key in another case,
                // "Age" for "age", is another key).
                lookup(m, k).cloned().ok_or_else(|| {
                    CallError::invalid(id, format!("item {i} has no :{k}: {}", keys_of(m)))
                })?
            }
            None => item.clone(),
        };
        keyed.push((k, item.clone()));
    }
    if key.is_none() {
        no_order_of_maps(id, items)?;
    }
    // "3/1/2022" is March or January: as text it orders by its first
    // digits, as a date its order is a guess.
    if let Some((_, (k, _))) = keyed
        .iter()
        .enumerate()
        .find(|(_, (k, _))| k.as_str().is_some_and(is_day_month_date))
    {
        return Err(CallError::invalid(
            id,
            format!(
                "{k} is a date written day and month by number: its order is a guess (M/D or D/M); write dates as YYYY-MM-DD"
            ),
        ));
    }
    if let Some(k) = &key
        && !alphabetical
    {
        // Numbers beside texts ("age": 29 and "29"): numbers when every
        // text spells one, else no order is sure.
        let numbers = keyed
            .iter()
            .filter(|(v, _)| matches!(v, Value::Int(_) | Value::Float(_)))
            .count();
        if numbers > 0 && numbers < keyed.len() {
            let as_numbers: Option<Vec<f64>> = keyed
                .iter()
                .map(|(v, _)| match v {
                    Value::Int(n) => Some(*n as f64),
                    Value::Float(f) => Some(*f),
                    other => text_number(other),
                })
                .collect();
            let Some(as_numbers) = as_numbers else {
                return Err(CallError::invalid(
                    id,
                    format!(
                        "the values of :{k} are of several kinds (numbers and others): no order is sure"
                    ),
                ));
            };
            let mut pairs: Vec<(f64, Value)> = as_numbers
                .into_iter()
                .zip(keyed.into_iter().map(|(_, v)| v))
                .collect();
            pairs.sort_by(|x, y| directed(x.0.total_cmp(&y.0), descending));
            return Ok(Value::vector(pairs.into_iter().map(|(_, v)| v).collect()));
        }
    }
    if alphabetical {
        // As words in a dictionary: case aside (then as written), a
        // number by its digits ("10" before "9").
        let mut texts: Vec<((String, Value), Value)> = keyed
            .into_iter()
            .map(|(k, v)| {
                let t = k.as_str().map_or_else(|| k.to_string(), str::to_lowercase);
                ((t, k), v)
            })
            .collect();
        texts.sort_by(|x, y| {
            directed(
                x.0.0.cmp(&y.0.0).then_with(|| x.0.1.cmp(&y.0.1)),
                descending,
            )
        });
        return Ok(Value::vector(texts.into_iter().map(|(_, v)| v).collect()));
    }
    let numeric = all_numeric_texts(keyed.iter().map(|(k, _)| k));
    keyed.sort_by(|x, y| directed(order(&x.0, &y.0, numeric), descending));
    Ok(Value::vector(keyed.into_iter().map(|(_, v)| v).collect()))
}

/// A date written with its day and month as numbers ("3/1/2022",
/// "25/12/21", "12-25-2021", "25.12.2021"), whose order depends on which
/// is which. (With dots or dashes only before a four-digit year: "1.2.10"
/// is a version.)
fn is_day_month_date(t: &str) -> bool {
    let t = t.trim();
    let Some(sep) = t.chars().find(|c| matches!(c, '/' | '.' | '-')) else {
        return false;
    };
    let parts: Vec<&str> = t.split(sep).collect();
    parts.len() == 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
        && parts[0].len() <= 2
        && parts[1].len() <= 2
        && (parts[2].len() == 4 || (sep == '/' && parts[2].len() == 2))
}

/// `ascending`'s order, reversed when `descending` (the sort is stable
/// either way: equal keys keep the list's order).
fn directed(ascending: std::cmp::Ordering, descending: bool) -> std::cmp::Ordering {
    if descending {
        ascending.reverse()
    } else {
        ascending
    }
}

/// The number a text spells (`"10"`, `"-2.5"`, `"1,000"`), if it spells
/// a finite one.
fn text_number(v: &Value) -> Option<f64> {
    let t = v.as_str()?.trim();
    let plain = if t.contains(',') {
        // Thousands separators only: `1,000`, `-12,345.5`.
        if !ccos_core::text::is_thousands(t.trim_start_matches(['-', '+'])) {
            return None;
        }
        t.replace(',', "")
    } else {
        t.to_string()
    };
    // Digits only: "inf", "NaN" and "1e400" are not numbers a person wrote.
    if !plain
        .trim_start_matches(['-', '+'])
        .chars()
        .all(|c| c.is_ascii_digit() || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+')
        || !plain.chars().any(|c| c.is_ascii_digit())
    {
        return None;
    }
    plain.parse::<f64>().ok().filter(|f| f.is_finite())
}

/// Whether every value is a text that spells a number: such lists
/// (`["10" "9" "100"]`, numbers read from a file) order as numbers, as a
/// person reading them would, not letter by letter.
fn all_numeric_texts<'v>(mut values: impl Iterator<Item = &'v Value>) -> bool {
    let mut any = false;
    let all = values.all(|v| {
        any = true;
        text_number(v).is_some()
    });
    any && all
}

/// The order of list items: numeric texts by their numbers when
/// `numeric` (ties by the text, so the order stays total), otherwise the
/// value order.
fn order(a: &Value, b: &Value, numeric: bool) -> std::cmp::Ordering {
    match (numeric, text_number(a), text_number(b)) {
        (true, Some(x), Some(y)) => x.total_cmp(&y).then_with(|| a.cmp(b)),
        _ => a.cmp(b),
    }
}

/// Map lookup by name: keyword key first, then string key.
pub(crate) fn lookup<'m>(m: &'m rtfs::Map, name: &str) -> Option<&'m Value> {
    m.get(&Value::keyword(name))
        .or_else(|| m.get(&Value::string(name)))
}

/// Access to the single map argument of an object-schema capability.
pub(crate) struct Args<'a> {
    cap: &'a str,
    map: &'a rtfs::Map,
}

impl<'a> Args<'a> {
    /// Checks there is exactly one map argument.
    pub(crate) fn one_map(cap: &'a str, args: &'a [Value]) -> Result<Args<'a>, CallError> {
        match args {
            [Value::Map(m)] => Ok(Args { cap, map: m }),
            [other] => Err(CallError::invalid(
                cap,
                format!("expects one map argument, got {}", other.type_name()),
            )),
            _ => Err(CallError::invalid(
                cap,
                format!("expects one map argument, got {} arguments", args.len()),
            )),
        }
    }

    pub(crate) fn opt_value(&self, key: &str) -> Option<&'a Value> {
        lookup(self.map, key)
    }

    pub(crate) fn value(&self, key: &str) -> Result<&'a Value, CallError> {
        self.opt_value(key)
            .ok_or_else(|| CallError::invalid(self.cap, format!("missing :{key}")))
    }

    fn wrong(&self, key: &str, want: &str, got: &Value) -> CallError {
        CallError::invalid(
            self.cap,
            format!(":{key} must be {want}, got {}", got.type_name()),
        )
    }

    pub(crate) fn str(&self, key: &str) -> Result<&'a str, CallError> {
        let v = self.value(key)?;
        v.as_str().ok_or_else(|| self.wrong(key, "a string", v))
    }

    pub(crate) fn opt_str(&self, key: &str) -> Result<Option<&'a str>, CallError> {
        match self.opt_value(key) {
            None | Some(Value::Nil) => Ok(None),
            Some(v) => v
                .as_str()
                .map(Some)
                .ok_or_else(|| self.wrong(key, "a string", v)),
        }
    }

    pub(crate) fn int(&self, key: &str) -> Result<i64, CallError> {
        match self.value(key)? {
            Value::Int(i) => Ok(*i),
            v => Err(self.wrong(key, "an integer", v)),
        }
    }

    pub(crate) fn opt_bool(&self, key: &str) -> Result<Option<bool>, CallError> {
        match self.opt_value(key) {
            None | Some(Value::Nil) => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(v) => Err(self.wrong(key, "a boolean", v)),
        }
    }

    pub(crate) fn seq(&self, key: &str) -> Result<&'a [Value], CallError> {
        let v = self.value(key)?;
        v.as_seq().ok_or_else(|| self.wrong(key, "a vector", v))
    }

    /// A key name given as a string or a keyword.
    fn opt_key_name(&self, key: &str) -> Result<Option<String>, CallError> {
        match self.opt_value(key) {
            None | Some(Value::Nil) => Ok(None),
            Some(Value::Str(s) | Value::Keyword(s)) => Ok(Some(s.to_string())),
            Some(v) => Err(self.wrong(key, "a string or keyword", v)),
        }
    }
}

#[cfg(test)]
mod tests;
