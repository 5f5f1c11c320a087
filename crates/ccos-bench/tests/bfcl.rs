//! The BFCL end-to-end mode on the real sets of `../shared/bench/bfcl`:
//! every case loads with its answers, every case's functions register as
//! capabilities, and a few cases of each set are planned and scored.
//!
//! Skipped with a note when the bench directory is absent; a failure
//! under `CI=true`.

use ccos_bench::bfcl::{self, Answer, BfclOptions, IRRELEVANCE, SETS};
use ccos_bench::{EvalError, Part};

/// `<bench>/bfcl`, or `None` (skip) when the bench directory is absent.
fn bfcl_dir() -> Option<std::path::PathBuf> {
    ccos_testkit::bench_dir().map(|d| bfcl::bfcl_dir(&d))
}

#[test]
fn every_set_loads_with_its_answers() {
    let Some(dir) = bfcl_dir() else { return };
    let expected = [
        ("simple", 400),
        ("multiple", 200),
        ("parallel", 200),
        ("parallel_multiple", 200),
        (IRRELEVANCE, 240),
    ];
    for (set, n) in expected {
        let cases = bfcl::load_set(&dir, set).unwrap_or_else(|e| panic!("{set}: {e}"));
        assert_eq!(cases.len(), n, "{set}");
        for (i, c) in cases.iter().enumerate() {
            assert_eq!(c.index, i);
            assert!(
                !c.question.is_empty() && !c.functions.is_empty(),
                "{}",
                c.id
            );
            if set == IRRELEVANCE {
                assert!(c.gold.is_empty(), "{}", c.id);
            } else {
                assert!(!c.gold.is_empty(), "{}", c.id);
                // Every gold function is one of the case's functions.
                for g in &c.gold {
                    assert!(
                        c.functions.iter().any(|f| f.name == g.function),
                        "{}: {}",
                        c.id,
                        g.function
                    );
                }
            }
        }
        if set.starts_with("parallel") {
            assert!(cases.iter().any(|c| c.gold.len() > 1), "{set}");
        }
    }
}

#[test]
fn every_function_of_every_case_becomes_a_capability() {
    let Some(dir) = bfcl_dir() else { return };
    for (set, _) in SETS {
        for c in bfcl::load_set(&dir, set).unwrap_or_else(|e| panic!("{set}: {e}")) {
            let (mp, names) =
                bfcl::case_marketplace(&c).unwrap_or_else(|e| panic!("{}: {e}", c.id));
            assert_eq!(names.len(), c.functions.len(), "{}", c.id);
            for (id, name) in &names {
                let m = mp.get(id).unwrap_or_else(|| panic!("{}: {id}", c.id));
                assert_eq!(&m.name, name);
                assert_eq!(m.input_schema["type"], "object", "{}: {id}", c.id);
            }
        }
    }
}

#[test]
fn a_few_cases_of_each_set_are_planned_and_scored() {
    let Some(dir) = bfcl_dir() else { return };
    let opts = BfclOptions {
        part: Part::Dev,
        limit: Some(3),
        ..BfclOptions::default()
    };
    let r = bfcl::evaluate(&dir, opts).unwrap_or_else(|e| panic!("{e}"));
    let sets: Vec<&str> = r.sets.iter().map(|s| s.set.as_str()).collect();
    assert_eq!(
        sets,
        [
            "simple",
            "multiple",
            "parallel",
            "parallel_multiple",
            IRRELEVANCE,
            "relevant"
        ]
    );
    assert_eq!(r.cases.len(), 15);
    for s in &r.sets[..5] {
        assert_eq!(s.cases, 3, "{}", s.set);
        assert_eq!(s.plans + s.requires_agent + s.errors, 3, "{}", s.set);
    }
    assert_eq!(r.sets[5].cases, 12);
    for c in &r.cases {
        // The figures are consistent with what was answered.
        assert!(!c.args_exact || c.called, "{c:?}");
        assert!(!c.args_exact || c.args_ci, "{c:?}");
        if c.answer != Answer::Plan {
            assert!(!c.called && c.calls.is_empty(), "{c:?}");
        }
        if c.set == IRRELEVANCE {
            assert!(!c.called && c.gold_top_ranked.is_none(), "{c:?}");
        } else {
            assert_eq!(
                c.gold_top_ranked.is_some(),
                c.answer == Answer::RequiresAgent,
                "{c:?}"
            );
        }
        if let Some(e) = &c.error {
            assert_eq!(c.answer, Answer::Error, "{e}");
        }
    }
    // Only dev cases were taken (the split of the other datasets).
    let simple = bfcl::load_set(&dir, "simple").unwrap_or_default();
    for c in r.cases.iter().filter(|c| c.set == "simple") {
        let index = simple
            .iter()
            .position(|s| s.id == c.id)
            .unwrap_or(usize::MAX);
        assert!(Part::Dev.contains(index), "{}", c.id);
    }
    let text = bfcl::render(&r);
    assert!(
        text.contains("gold function called") && text.contains("irrelevance refused"),
        "{text}"
    );
    let json = serde_json::to_value(&r).unwrap_or_default();
    assert_eq!(json["sets"][5]["set"], "relevant");
}

#[test]
fn missing_files_name_the_file() {
    let e = bfcl::load_set(std::path::Path::new("/nonexistent/bfcl"), "simple").unwrap_err();
    assert!(
        e.to_string()
            .contains("/nonexistent/bfcl/possible_answer/BFCL_v4_simple_python.json"),
        "{e}"
    );
    let e = bfcl::load_set(std::path::Path::new("/nonexistent"), "nope").unwrap_err();
    assert!(matches!(e, EvalError::UnknownDataset(_)), "{e}");
}

#[test]
fn a_case_without_ground_truth_names_its_id() {
    let dir = tempfile::tempdir().unwrap();
    let q = r#"{"id": "simple_python_0", "question": [[{"role": "user", "content": "Find the area."}]], "function": [{"name": "area", "description": "Area.", "parameters": {"type": "dict", "properties": {}, "required": []}}]}"#;
    std::fs::write(dir.path().join("BFCL_v4_simple_python.json"), q).unwrap();
    std::fs::create_dir(dir.path().join("possible_answer")).unwrap();
    std::fs::write(
        dir.path()
            .join("possible_answer/BFCL_v4_simple_python.json"),
        "{\"id\": \"other\", \"ground_truth\": [{\"area\": {}}]}\n",
    )
    .unwrap();
    let e = bfcl::load_set(dir.path(), "simple").unwrap_err();
    assert!(e.to_string().contains("simple_python_0"), "{e}");
    std::fs::write(dir.path().join("BFCL_v4_simple_python.json"), "{not json\n").unwrap();
    let e = bfcl::load_set(dir.path(), "simple").unwrap_err();
    assert!(e.to_string().contains("line 1"), "{e}");
}
