//! `parse(print(v)) == v` for every printable value, and printing is stable.

use proptest::prelude::*;
use rtfs::Value;

fn name() -> impl Strategy<Value = String> {
    // Valid symbol/keyword names: a non-digit start, then symbol characters.
    ("[a-zA-Z*!?_<>=][a-zA-Z0-9.*+!?_<>=/-]{0,8}", any::<bool>())
        .prop_filter_map("reserved", |(s, _)| {
            rtfs::syntax::is_valid_symbol_name(&s).then_some(s)
        })
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Nil),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::Int),
        any::<f64>().prop_map(Value::Float),
        ".{0,12}".prop_map(|s: String| Value::from(s)),
        name().prop_map(|n| Value::keyword(&n)),
        name().prop_map(|n| Value::Symbol(n.into())),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::list),
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::vector),
            prop::collection::vec((inner.clone(), inner), 0..6).prop_map(Value::map),
        ]
    })
}

/// The logical size and depth of `v` computed by walking it, to check the
/// measures cached when collections are built.
fn measured(v: &Value) -> (u64, u32) {
    let slot = rtfs::value::SLOT_BYTES;
    let walk = |items: &mut dyn Iterator<Item = &Value>| {
        let (mut bytes, mut depth) = (slot, 0);
        for x in items {
            let (b, d) = measured(x);
            bytes += b;
            depth = depth.max(d);
        }
        (bytes, depth + 1)
    };
    match v {
        Value::Str(s) | Value::Keyword(s) | Value::Symbol(s) => (slot + s.len() as u64, 0),
        Value::List(items) | Value::Vector(items) => walk(&mut items.iter()),
        Value::Map(m) => walk(&mut m.iter().flat_map(|(k, v)| [k, v])),
        _ => (slot, 0),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn print_then_parse_gives_the_value_back(v in value()) {
        let printed = rtfs::print_value(&v);
        let parsed = rtfs::parse_one(&printed).map_err(|e| TestCaseError::fail(format!("{printed}: {e}")))?;
        prop_assert_eq!(parsed.to_value(), v);
    }

    #[test]
    fn printing_is_stable(v in value()) {
        let once = rtfs::print_value(&v);
        let twice = rtfs::print_value(&rtfs::parse_one(&once).unwrap().to_value());
        prop_assert_eq!(&once, &twice);
        let pretty = rtfs::pretty(&v, 40);
        prop_assert_eq!(rtfs::parse_one(&pretty).unwrap().to_value(), v);
    }

    #[test]
    fn cached_measures_match_a_walk(v in value()) {
        prop_assert_eq!((v.logical_size(), v.depth()), measured(&v));
    }

    #[test]
    fn bounded_printing_agrees_with_printing(v in value(), budget in 0usize..64) {
        let printed = rtfs::print_value(&v);
        let within = rtfs::printer::print_value_within(&v, budget);
        if printed.len() <= budget {
            prop_assert_eq!(within.as_deref(), Some(printed.as_str()));
        } else {
            prop_assert_eq!(within, None);
        }
        let prefix = rtfs::printer::print_value_prefix(&v, budget);
        prop_assert!(printed.starts_with(&prefix));
        prop_assert!(prefix.len() <= budget);
        prop_assert!(prefix.len() + 4 > budget.min(printed.len()));
    }

    #[test]
    fn json_text_within_a_budget_is_the_json_text(v in value(), budget in 0usize..64) {
        match rtfs::to_json(&v) {
            Ok(j) => {
                let text = j.to_string();
                let within = rtfs::json::to_json_string_within(&v, budget);
                if text.len() <= budget {
                    prop_assert_eq!(within.ok(), Some(text));
                } else {
                    prop_assert_eq!(within.map_err(|e| e.kind), Err(rtfs::ErrorKind::Limit));
                }
                prop_assert_eq!(rtfs::json::to_json_string_within(&v, usize::MAX).ok(), Some(j.to_string()));
            }
            Err(_) => prop_assert!(rtfs::json::to_json_string_within(&v, usize::MAX).is_err()),
        }
    }

    #[test]
    fn arbitrary_text_never_panics(s in ".{0,64}") {
        if let Ok(forms) = rtfs::parse(&s) {
            let _ = rtfs::Evaluator::new(&rtfs::PureHost)
                .with_limits(rtfs::Limits { max_steps: 10_000, ..Default::default() })
                .eval_program(&forms);
        }
    }
}
