//! Bounded evaluation (issue 14, "Bounded evaluation and runs"): every
//! program that once aborted the process (an 8 GB allocation, a stack
//! overflow) or stalled (printing, comparing or converting a value built
//! by doubling; a string built by repeated `str`) now ends with a `:limit`
//! error that `try` cannot catch; values just inside the bounds still
//! work; and the host's `poll` can stop any run.
//!
//! The attack programs are the ones measured from outside with the
//! `rtfs-eval` example (peak memory, wall time); here only the error kind
//! and message are asserted, never a time.

use std::sync::atomic::{AtomicU64, Ordering};

use rtfs::{
    CallRequest, ErrorKind, Evaluator, Host, Limits, PureHost, Result, RtfsError, Value, eval_str,
};

/// A value nested 10,000 (or more) levels deep at run time.
const DEEP: &str = "(reduce (fn [acc x] [acc]) [] (range 100000))";
/// A value of 2^60 elements built by doubling (61 allocations).
const DOUBLED: &str = "(reduce (fn [acc _] [acc acc]) 1 (range 60))";

/// `(name, program, fragment of the error message)`.
fn bombs() -> Vec<(&'static str, String, &'static str)> {
    let deep_size = "value depth limit exceeded";
    let big = "value size limit exceeded";
    vec![
        (
            "replace",
            r#"(let [s (join (map (fn [_] "aaaaaaaaaa") (range 100000)))] (count (replace s "a" s)))"#
                .into(),
            "collection size limit exceeded",
        ),
        ("deep-json", format!("(count (to-json {DEEP}))"), deep_size),
        (
            "deep-eq",
            format!("(let [a {DEEP} b {DEEP}] (= a b))"),
            deep_size,
        ),
        (
            "deep-sort",
            format!("(count (sort [{DEEP} {DEEP}]))"),
            deep_size,
        ),
        (
            "deep-str",
            "(count (str (reduce (fn [acc x] [acc]) [] (range 200000))))".into(),
            deep_size,
        ),
        (
            "deep-drop",
            "(do (reduce (fn [acc x] [acc]) [] (range 200000)) 1)".into(),
            deep_size,
        ),
        (
            "closure-chain",
            "(count ((reduce (fn [f _] (fn [] (f))) (fn [] 1) (range 300000))))".into(),
            deep_size,
        ),
        (
            "closure-drop",
            "(do (reduce (fn [f _] (fn [] (f))) (fn [] 1) (range 300000)) 1)".into(),
            deep_size,
        ),
        ("double-str", format!("(count (str {DOUBLED}))"), big),
        (
            "double-eq",
            format!("(let [a {DOUBLED} b {DOUBLED}] (= a (conj b 1)))"),
            big,
        ),
        ("double-json", format!("(count (to-json {DOUBLED}))"), big),
        ("double-print", DOUBLED.into(), big),
        (
            "double-sort",
            format!("(let [a {DOUBLED}] (count (sort [a (conj a 1)])))"),
            big,
        ),
        (
            "double-distinct",
            format!("(let [a {DOUBLED}] (count (distinct [a (conj a 1)])))"),
            big,
        ),
    ]
}

#[test]
fn every_bomb_ends_in_a_limit_error() {
    for (name, src, fragment) in bombs() {
        let e = eval_str(&src).expect_err(name);
        assert_eq!(e.kind, ErrorKind::Limit, "{name}: {}", e.message);
        assert!(
            e.message.contains(fragment),
            "{name}: {:?} lacks {fragment:?}",
            e.message
        );
        let caught = format!("(try {src} (catch e :caught))");
        let e = eval_str(&caught).expect_err(name);
        assert_eq!(e.kind, ErrorKind::Limit, "{name} was caught: {}", e.message);
    }
}

/// Building a string by repeated `str` copies the string every time: the
/// copies are charged to the step budget, so the quadratic loop stops
/// where a linear one of as many iterations would go on.
#[test]
fn repeated_str_is_charged_for_its_copies() {
    let limits = Limits {
        max_steps: 1_000_000,
        ..Limits::default()
    };
    let ev = Evaluator::new(&PureHost).with_limits(limits);
    // The same number of iterations, without copying, fits the budget...
    let v = ev
        .eval_str("(reduce (fn [acc _] (inc acc)) 0 (range 100000))")
        .unwrap();
    assert_eq!(v, Value::Int(100_000));
    // ...copying the growing string does not.
    let ev = Evaluator::new(&PureHost).with_limits(limits);
    let e = ev
        .eval_str("(count (reduce (fn [acc _] (str acc \"x\")) \"\" (range 100000)))")
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit);
    assert!(e.message.contains("step limit"), "{}", e.message);
}

#[test]
fn values_inside_the_bounds_still_work() {
    let cases = [
        // A string of exactly max_collection_size bytes.
        (
            "(count (join (map (fn [_] \"aaaaaaaaaa\") (range 100000))))",
            "1000000",
        ),
        // A value built by doubling 16 times: printed, compared, converted.
        (
            "(let [a (reduce (fn [acc _] [acc acc]) 1 (range 16)) b (reduce (fn [acc _] [acc acc]) 1 (range 16))] [(= a b) (count (str a)) (= (count (str a)) (count (to-json a)))])",
            "[true 262141 true]",
        ),
        (
            "(let [a (reduce (fn [acc _] [acc acc]) 1 (range 16))] (count (distinct [a (conj a 1) a])))",
            "2",
        ),
        // Nesting just inside max_value_depth (1024).
        (
            "(count (str (reduce (fn [acc x] [acc]) [] (range 1023))))",
            "2048",
        ),
        (
            "(let [d (reduce (fn [acc x] [acc]) [] (range 1023))] (count (to-json d)))",
            "2048",
        ),
    ];
    for (src, want) in cases {
        match eval_str(src) {
            Ok(v) => assert_eq!(v.to_string(), want, "for {src}"),
            Err(e) => panic!("{src} failed: {e}"),
        }
    }
    let e = eval_str("(count (str (reduce (fn [acc x] [acc]) [] (range 1024))))").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit);
}

#[test]
fn value_sizes_are_measured_without_traversal() {
    let v = eval_str(DOUBLED.replace("60", "20").as_str()).unwrap();
    // 2^20 leaves and 2^20 - 1 vectors, 8 bytes each.
    assert_eq!(v.logical_size(), (2 * (1 << 20) - 1) * 8);
    assert_eq!(v.depth(), 20);
    assert_eq!(Value::string("abc").logical_size(), 8 + 3);
    assert_eq!(Value::Int(1).depth(), 0);
    // Tighter limits apply to everything built.
    let ev = Evaluator::new(&PureHost).with_limits(Limits {
        max_value_bytes: 1000,
        max_value_depth: 3,
        ..Limits::default()
    });
    assert_eq!(
        ev.eval_str("(range 200)").unwrap_err().kind,
        ErrorKind::Limit
    );
    assert_eq!(ev.eval_str("[[[[1]]]]").unwrap_err().kind, ErrorKind::Limit);
    assert_eq!(
        ev.eval_str("(let [s \"0123456789012345678901234567890123456789\"] (str s s s s s s s s s s s s s s s s s s s s s s s s s s))")
            .unwrap_err()
            .kind,
        ErrorKind::Limit
    );
    assert!(ev.eval_str("[[[1]]]").is_ok());
    let limits = Limits::default();
    assert!(Value::try_vector(vec![Value::Int(1)], &limits).is_ok());
    let mut deep = Value::Nil;
    for _ in 0..1100 {
        deep = Value::vector(vec![deep]);
    }
    assert_eq!(
        Value::try_vector(vec![deep.clone()], &limits)
            .unwrap_err()
            .kind,
        ErrorKind::Limit
    );
    assert_eq!(
        Evaluator::new(&PureHost)
            .try_define("x", deep)
            .unwrap_err()
            .kind,
        ErrorKind::Limit
    );
}

#[test]
fn outside_json_is_converted_within_the_bounds() {
    let limits = Limits {
        max_value_depth: 3,
        max_value_bytes: 100,
        ..Limits::default()
    };
    let ok = rtfs::json::parse_json_bounded(r#"{"a": [1, 2]}"#, &limits).unwrap();
    assert_eq!(ok.to_string(), "{:a [1 2]}");
    let deep = rtfs::json::parse_json_bounded("[[[[1]]]]", &limits).unwrap_err();
    assert_eq!(deep.kind, ErrorKind::Limit);
    let big =
        rtfs::json::parse_json_bounded(&format!("\"{}\"", "x".repeat(200)), &limits).unwrap_err();
    assert_eq!(big.kind, ErrorKind::Limit);
    // JSON text written within a budget, or refused.
    let v = eval_str("{:a [1 2.5 \"x\"] \"a b\" nil}").unwrap();
    let text = rtfs::json::to_json_string_within(&v, 1000).unwrap();
    assert_eq!(text, rtfs::to_json(&v).unwrap().to_string());
    // serde_json itself refuses a document nested deeper than 128.
    let nested = format!("{}{}", "[".repeat(2000), "]".repeat(2000));
    let e = rtfs::json::parse_json_bounded(&nested, &Limits::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Parse);
    let e = rtfs::json::to_json_string_within(&v, 10).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit);
    // Printing within a budget.
    assert_eq!(
        rtfs::printer::print_value_within(&v, 1000).as_deref(),
        Some(rtfs::print_value(&v).as_str())
    );
    assert_eq!(rtfs::printer::print_value_within(&v, 5), None);
    assert_eq!(rtfs::printer::print_value_prefix(&v, 5), "{\"a b");
}

/// A host whose tool returns whatever was put in it.
struct Returns(Value);

impl Host for Returns {
    fn call(&self, _req: CallRequest<'_>) -> Result<Value> {
        Ok(self.0.clone())
    }
}

#[test]
fn a_host_result_beyond_the_bounds_is_refused() {
    let mut deep = Value::Int(1);
    for _ in 0..2000 {
        deep = Value::vector(vec![deep]);
    }
    let host = Returns(deep);
    let e = Evaluator::new(&host)
        .eval_str("(try (call :big.tool) (catch e :caught))")
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit);
    assert!(
        e.message.contains("the result of big.tool is too large"),
        "{}",
        e.message
    );
}

/// A host counting polls and refusing after `allow` of them with an error
/// of kind `kind`.
struct Polls {
    polls: AtomicU64,
    allow: u64,
    kind: ErrorKind,
    calls: AtomicU64,
}

impl Polls {
    fn new(allow: u64, kind: ErrorKind) -> Self {
        Polls {
            polls: AtomicU64::new(0),
            allow,
            kind,
            calls: AtomicU64::new(0),
        }
    }
}

impl Host for Polls {
    fn call(&self, _req: CallRequest<'_>) -> Result<Value> {
        self.calls.fetch_add(1, Ordering::Relaxed);
        Ok(Value::Int(1))
    }

    fn poll(&self) -> Result<()> {
        let n = self.polls.fetch_add(1, Ordering::Relaxed) + 1;
        if n > self.allow {
            Err(RtfsError::new(self.kind, "run deadline of 10 ms exceeded"))
        } else {
            Ok(())
        }
    }

    fn run_parallel<'a>(&self, branches: Vec<rtfs::Branch<'a>>) -> Vec<Result<Value>> {
        std::thread::scope(|s| {
            let handles: Vec<_> = branches.into_iter().map(|b| s.spawn(b)).collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err(RtfsError::new(ErrorKind::Host, "panicked")))
                })
                .collect()
        })
    }
}

#[test]
fn pure_evaluation_polls_the_host_regularly() {
    let host = Polls::new(u64::MAX, ErrorKind::Limit);
    let ev = Evaluator::new(&host);
    ev.eval_str("(do (defn down [n] (if (= n 0) 0 (down (dec n)))) (down 2000))")
        .unwrap();
    let steps = ev.steps_taken();
    let polls = host.polls.load(Ordering::Relaxed);
    assert!(
        polls >= steps / rtfs::eval::POLL_INTERVAL,
        "{polls} polls for {steps} steps"
    );
}

#[test]
fn a_long_builtin_polls_the_host() {
    // One call of `sort` on a large vector is charged many steps, and the
    // charge polls like the steps it stands for.
    let host = Polls::new(u64::MAX, ErrorKind::Limit);
    let ev = Evaluator::new(&host);
    ev.eval_str("(def v (map str (range 200000)))").unwrap();
    let (before, steps) = (host.polls.load(Ordering::Relaxed), ev.steps_taken());
    ev.eval_str("(count (sort v))").unwrap();
    assert!(ev.steps_taken() - steps > 10 * rtfs::eval::POLL_INTERVAL);
    assert!(host.polls.load(Ordering::Relaxed) > before);
}

#[test]
fn a_poll_error_ends_the_run_and_cannot_be_caught() {
    // A catchable kind (here :host) becomes a limit; a limit stays a limit.
    for kind in [ErrorKind::Host, ErrorKind::Limit] {
        let host = Polls::new(3, kind);
        let e = Evaluator::new(&host)
            .eval_str("(try (reduce + (range 1000000)) (catch e :caught) (finally 1))")
            .unwrap_err();
        assert_eq!(e.kind, ErrorKind::Limit);
        assert_eq!(e.message, "run deadline of 10 ms exceeded");
        assert!(e.span.is_some());
    }
    // A denial stays a denial, uncatchable too.
    let host = Polls::new(0, ErrorKind::Denied);
    let e = Evaluator::new(&host)
        .eval_str("(try (step \"s\" 1) (catch e :caught))")
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Denied);
}

#[test]
fn a_call_is_not_made_once_the_host_says_stop() {
    let host = Polls::new(0, ErrorKind::Limit);
    let e = Evaluator::new(&host).eval_str("(call :x.y 1)").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit);
    assert_eq!(host.calls.load(Ordering::Relaxed), 0);
}

#[test]
fn steps_loops_and_parallel_branches_poll() {
    // Each step, loop iteration and branch asks first: with no budget of
    // polls at all, none of them starts.
    for src in [
        "(step \"a\" 1)",
        "(step-loop [x [1 2 3]] x)",
        "(step-parallel 1 2)",
    ] {
        let host = Polls::new(0, ErrorKind::Limit);
        let e = Evaluator::new(&host).eval_str(src).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Limit, "{src}");
    }
    // Branches on threads stop as well: a long computation in each.
    let host = Polls::new(50, ErrorKind::Limit);
    let e = Evaluator::new(&host)
        .eval_str("(step-parallel (reduce + (range 1000000)) (reduce + (range 1000000)))")
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit);
    // A loop of cheap iterations polls at each one.
    let host = Polls::new(u64::MAX, ErrorKind::Limit);
    Evaluator::new(&host)
        .eval_str("(step-loop [x (range 100)] x)")
        .unwrap();
    assert!(host.polls.load(Ordering::Relaxed) >= 100);
}
