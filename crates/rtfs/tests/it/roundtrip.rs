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
    fn arbitrary_text_never_panics(s in ".{0,64}") {
        if let Ok(forms) = rtfs::parse(&s) {
            let _ = rtfs::Evaluator::new(&rtfs::PureHost)
                .with_limits(rtfs::Limits { max_steps: 10_000, ..Default::default() })
                .eval_program(&forms);
        }
    }
}
