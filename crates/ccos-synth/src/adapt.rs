//! Adapters: how the collected context fills a candidate's inputs.
//!
//! For each input of a candidate, in the candidate's order, a source key of
//! the context is looked for in tiers: the same key; a skill's rename hint;
//! the planner's key mapping (case styles and synonyms,
//! [`ccos_marketplace::keys::map_key`]). The value is then coerced when the
//! types differ (string → int/float/bool, scalars → string, dates parsed at
//! synthesis time), and an optional key absent from the conversation takes
//! its schema default. A required input without a source makes the
//! candidate non-viable.

use std::collections::{BTreeMap, BTreeSet};

use rtfs::Value;
use serde::Serialize;
use serde_json::Value as Json;

use crate::context::{CardInput, ParamType, PlannerGenContext};

/// One input filled from the context (spec 026's `AdapterStep`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AdapterStep {
    /// Context key.
    pub from: String,
    /// Candidate input key.
    pub to: String,
    /// How the key was matched: `same`, `skill-hint`, `case-style`, `synonym`.
    pub rename: String,
    /// Coercion applied (`string->int`, `parse-date`, ...), if any.
    pub coercion: Option<String>,
    /// True when the value is the schema default (the conversation gave none).
    pub default_used: bool,
}

/// A context key as the planner sees it.
#[derive(Debug, Clone)]
pub(crate) struct Available {
    pub key: String,
    pub ty: ParamType,
    pub required: bool,
    pub value: Option<Json>,
    pub default: Option<Json>,
}

/// The context keys: schema order, then collected keys not in the schema
/// (sorted); the type of an `any` key is that of its collected value.
pub(crate) fn available(ctx: &PlannerGenContext) -> Vec<Available> {
    let collected = ctx.collected();
    let mut out: Vec<Available> = ctx
        .schema
        .iter()
        .map(|p| {
            let value = collected.get(&p.key).cloned();
            let ty = match (p.ty, &value) {
                (ParamType::Any, Some(v)) => ParamType::of_value(v),
                (t, _) => t,
            };
            Available {
                key: p.key.clone(),
                ty,
                required: p.required,
                value,
                default: p.default.clone(),
            }
        })
        .collect();
    for (k, v) in &collected {
        if !out.iter().any(|a| &a.key == k) {
            out.push(Available {
                key: k.clone(),
                ty: ParamType::of_value(v),
                required: false,
                value: Some(v.clone()),
                default: None,
            });
        }
    }
    out
}

/// The matching of one candidate's inputs.
#[derive(Debug, Clone, Default)]
pub(crate) struct Matching {
    /// Filled inputs, in the candidate's order: the step and the RTFS
    /// expression over `context` giving its value.
    pub filled: Vec<(AdapterStep, Value, f64)>,
    /// Required inputs with no source (or an impossible coercion).
    pub missing: Vec<String>,
    /// Notes (why a coercion is impossible).
    pub notes: Vec<String>,
}

impl Matching {
    /// The adapter steps.
    pub fn steps(&self) -> Vec<AdapterStep> {
        self.filled.iter().map(|(s, _, _)| s.clone()).collect()
    }

    /// True when nothing was renamed, coerced or defaulted.
    pub fn is_identity(&self) -> bool {
        self.filled
            .iter()
            .all(|(s, _, _)| s.rename == "same" && s.coercion.is_none() && !s.default_used)
    }
}

fn sym(s: &str) -> Value {
    Value::Symbol(s.into())
}

fn ctx_get(key: &str) -> Value {
    Value::list(vec![sym("get"), sym("context"), Value::keyword(key)])
}

fn call1(f: &str, arg: Value) -> Value {
    Value::list(vec![sym(f), arg])
}

/// Matches `inputs` against the context keys `avail`; `hints` are the
/// skills' rename hints (context key → candidate keys).
pub(crate) fn match_inputs(
    inputs: &[CardInput],
    avail: &[Available],
    hints: &BTreeMap<String, Vec<String>>,
) -> Matching {
    let mut m = Matching::default();
    let props: Vec<String> = inputs.iter().map(|i| i.key.clone()).collect();
    let mut used_sources: BTreeSet<String> = BTreeSet::new();
    let mut taken_targets: BTreeSet<String> = BTreeSet::new();
    for input in inputs {
        let free = |a: &&Available| !used_sources.contains(&a.key);
        let found = avail
            .iter()
            .filter(free)
            .find(|a| a.key == input.key)
            .map(|a| (a, "same"))
            .or_else(|| {
                avail
                    .iter()
                    .filter(free)
                    .find(|a| hints.get(&a.key).is_some_and(|h| h.contains(&input.key)))
                    .map(|a| (a, "skill-hint"))
            })
            .or_else(|| {
                avail.iter().filter(free).find_map(|a| {
                    // Never rename a key the candidate declares itself.
                    if props.contains(&a.key) {
                        return None;
                    }
                    let target = ccos_marketplace::keys::map_key(&a.key, &props, &taken_targets)?;
                    (target == input.key).then(|| {
                        let same_words = ccos_marketplace::keys::normalize_key(&a.key)
                            == ccos_marketplace::keys::normalize_key(&input.key);
                        (a, if same_words { "case-style" } else { "synonym" })
                    })
                })
            });
        let Some((a, rename)) = found else {
            if input.required {
                m.missing.push(input.key.clone());
            }
            continue;
        };
        let default_used = a.value.is_none() && a.default.is_some();
        if !input.required && a.value.is_none() && a.default.is_none() {
            // An optional input the conversation did not give: left out.
            continue;
        }
        match coerce(a, input) {
            Ok((coercion, expr, compat)) => {
                let expr = match (&a.default, a.value.is_none()) {
                    (Some(d), true) if coercion.is_none() => Value::list(vec![
                        sym("get"),
                        sym("context"),
                        Value::keyword(&a.key),
                        rtfs::from_json(d),
                    ]),
                    _ => expr,
                };
                used_sources.insert(a.key.clone());
                taken_targets.insert(input.key.clone());
                let compat = if rename == "same" {
                    compat
                } else {
                    compat * 0.9
                };
                m.filled.push((
                    AdapterStep {
                        from: a.key.clone(),
                        to: input.key.clone(),
                        rename: rename.into(),
                        coercion,
                        default_used,
                    },
                    expr,
                    compat,
                ));
            }
            Err(why) => {
                m.notes.push(format!(":{} → :{}: {why}", a.key, input.key));
                if input.required {
                    m.missing.push(input.key.clone());
                }
            }
        }
    }
    m
}

/// The coercion from a context key to an input: (name, expression,
/// compatibility in 0..1), or why it is impossible.
#[allow(clippy::type_complexity)]
fn coerce(a: &Available, input: &CardInput) -> Result<(Option<String>, Value, f64), String> {
    use ParamType::*;
    let get = ctx_get(&a.key);
    let same = |v: Value| Ok((None, v, 1.0));
    let with = |name: &str, f: &str| Ok((Some(name.to_string()), call1(f, ctx_get(&a.key)), 0.75));
    match (a.ty, input.ty) {
        (x, y) if x == y => same(get),
        (_, Any) | (Any, _) => same(get),
        (Int, Float) => same(get),
        (Date | Datetime, String) => same(get),
        (String, Int) => with("string->int", "parse-int"),
        (String, Float) => with("string->float", "parse-float"),
        (String, Bool) => with("string->bool", "parse-json"),
        (Int | Float | Bool, String) => with("to-string", "str"),
        (String | Date | Datetime, Date | Datetime) => {
            let want_time = input.ty == Datetime;
            match a.value.as_ref().and_then(Json::as_str) {
                Some(raw) => match normalize_date(raw, want_time) {
                    Some(norm) if norm == raw => Ok((Some("parse-date".into()), get, 1.0)),
                    Some(norm) => {
                        // The value is known at synthesis time: a lookup
                        // from the collected spelling to the ISO one, any
                        // other value passed as it is.
                        let table = Value::map([(Value::string(raw), Value::string(&norm))]);
                        Ok((
                            Some("parse-date".into()),
                            Value::list(vec![sym("get"), table, get.clone(), get]),
                            0.75,
                        ))
                    }
                    None => Err(format!("{raw:?} is not a date")),
                },
                None => Ok((Some("parse-date (value unknown)".into()), get, 0.5)),
            }
        }
        (x, y) => Err(format!(
            "a {} cannot be adapted to a {}",
            x.as_str(),
            y.as_str()
        )),
    }
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// Normalises common date spellings to ISO 8601 (`YYYY-MM-DD`, or
/// `YYYY-MM-DDT00:00:00Z` when a date-time is wanted): ISO dates and
/// date-times, `YYYY/MM/DD`, `DD/MM/YYYY`, `DD.MM.YYYY`, `Month D, YYYY`,
/// `D Month YYYY`. `None` when the text is not a valid date.
pub fn normalize_date(raw: &str, want_time: bool) -> Option<String> {
    let s = raw.trim();
    let rfc = &time::format_description::well_known::Rfc3339;
    if let Ok(dt) = time::OffsetDateTime::parse(s, rfc) {
        return if want_time {
            Some(s.to_string())
        } else {
            Some(iso(dt.year(), u8::from(dt.month()), dt.day()))
        };
    }
    let nums: Vec<&str> = s.split(['-', '/', '.']).collect();
    let parsed = if nums.len() == 3 && nums.iter().all(|p| p.chars().all(|c| c.is_ascii_digit())) {
        let n: Vec<i64> = nums.iter().filter_map(|p| p.parse().ok()).collect();
        if n.len() != 3 {
            return None;
        }
        if nums[0].len() == 4 {
            (n[0], n[1], n[2])
        } else if nums[2].len() == 4 {
            (n[2], n[1], n[0])
        } else {
            return None;
        }
    } else {
        let words: Vec<String> = s
            .replace(',', " ")
            .split_whitespace()
            .map(str::to_lowercase)
            .collect();
        if words.len() != 3 {
            return None;
        }
        let month = |w: &str| {
            MONTHS
                .iter()
                .position(|m| w.starts_with(m))
                .map(|i| i as i64 + 1)
        };
        let num = |w: &str| {
            w.trim_end_matches(['s', 't', 'n', 'd', 'r', 'h'])
                .parse::<i64>()
                .ok()
        };
        match (month(&words[0]), month(&words[1])) {
            (Some(m), _) => (num(&words[2])?, m, num(&words[1])?),
            (_, Some(m)) => (num(&words[2])?, m, num(&words[0])?),
            _ => return None,
        }
    };
    let (y, m, d) = parsed;
    let month = time::Month::try_from(u8::try_from(m).ok()?).ok()?;
    let date = time::Date::from_calendar_date(i32::try_from(y).ok()?, month, u8::try_from(d).ok()?)
        .ok()?;
    let out = iso(date.year(), u8::from(date.month()), date.day());
    Some(if want_time {
        format!("{out}T00:00:00Z")
    } else {
        out
    })
}

fn iso(y: i32, m: u8, d: u8) -> String {
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn av(key: &str, ty: ParamType, value: Option<Json>, default: Option<Json>) -> Available {
        Available {
            key: key.into(),
            ty,
            required: true,
            value,
            default,
        }
    }

    fn input(key: &str, ty: ParamType, required: bool) -> CardInput {
        CardInput {
            key: key.into(),
            ty,
            required,
        }
    }

    #[test]
    fn dates_are_normalised() {
        assert_eq!(normalize_date("2025-10-11", false).unwrap(), "2025-10-11");
        assert_eq!(normalize_date("11/10/2025", false).unwrap(), "2025-10-11");
        assert_eq!(normalize_date("2025/10/11", false).unwrap(), "2025-10-11");
        assert_eq!(normalize_date("Oct 11, 2025", false).unwrap(), "2025-10-11");
        assert_eq!(
            normalize_date("11th October 2025", true).unwrap(),
            "2025-10-11T00:00:00Z"
        );
        assert_eq!(
            normalize_date("2025-10-11T08:00:00Z", false).unwrap(),
            "2025-10-11"
        );
        assert!(normalize_date("31/02/2025", false).is_none());
        assert!(normalize_date("tomorrow", false).is_none());
    }

    #[test]
    fn renames_coercions_and_defaults_are_selected_in_tiers() {
        let avail = vec![
            av("filePath", ParamType::String, Some("a.txt".into()), None),
            av("count", ParamType::String, Some("2".into()), None),
            av("when", ParamType::String, Some("11/10/2025".into()), None),
            av("loud", ParamType::Bool, None, Some(Json::Bool(true))),
            av("zone", ParamType::String, Some("utc".into()), None),
        ];
        let inputs = vec![
            input("path", ParamType::String, true),
            input("limit", ParamType::Int, true),
            input("date", ParamType::Date, true),
            input("loud", ParamType::Bool, false),
            input("tz", ParamType::String, false),
            input("needed", ParamType::String, true),
        ];
        let hints = BTreeMap::from([
            ("count".to_string(), vec!["limit".to_string()]),
            ("when".to_string(), vec!["date".to_string()]),
        ]);
        let m = match_inputs(&inputs, &avail, &hints);
        let steps = m.steps();
        let show: Vec<String> = steps
            .iter()
            .map(|s| {
                format!(
                    "{}->{} {} {:?} {}",
                    s.from, s.to, s.rename, s.coercion, s.default_used
                )
            })
            .collect();
        assert_eq!(
            show,
            vec![
                "filePath->path synonym None false",
                "count->limit skill-hint Some(\"string->int\") false",
                "when->date skill-hint Some(\"parse-date\") false",
                "loud->loud same None true",
            ]
        );
        assert_eq!(m.missing, vec!["needed"]);
        let exprs: Vec<String> = m.filled.iter().map(|(_, e, _)| e.to_string()).collect();
        assert_eq!(exprs[1], "(parse-int (get context :count))");
        assert_eq!(
            exprs[2],
            r#"(get {"11/10/2025" "2025-10-11"} (get context :when) (get context :when))"#
        );
        assert_eq!(exprs[3], "(get context :loud true)");
        assert!(!m.is_identity());
    }

    #[test]
    fn impossible_coercions_make_required_inputs_missing() {
        let avail = vec![av("n", ParamType::Float, Some(1.5.into()), None)];
        let m = match_inputs(
            &[input("n", ParamType::Int, true)],
            &avail,
            &BTreeMap::new(),
        );
        assert_eq!(m.missing, vec!["n"]);
        assert!(m.notes[0].contains("cannot be adapted"), "{:?}", m.notes);
    }
}
