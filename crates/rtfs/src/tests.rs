//! Unit tests for every special form and standard-library function,
//! error cases included. Each case is `(source, expected canonical value)`
//! or `(source, expected error kind, fragment of the message)`.

use std::sync::Mutex;

use crate::error::ErrorKind;
use crate::host::{CallRequest, Host, StepEvent, StepPhase};
use crate::{Evaluator, Limits, Result, RtfsError, Value, eval_str};

fn ok(cases: &[(&str, &str)]) {
    for (src, want) in cases {
        match eval_str(src) {
            Ok(v) => assert_eq!(v.to_string(), *want, "for {src}"),
            Err(e) => panic!("{src} failed: {e}"),
        }
    }
}

fn err(cases: &[(&str, ErrorKind, &str)]) {
    for (src, kind, fragment) in cases {
        match eval_str(src) {
            Ok(v) => panic!("{src} gave {v}, expected an error"),
            Err(e) => {
                assert_eq!(e.kind, *kind, "kind for {src}: {}", e.message);
                assert!(
                    e.message.contains(fragment),
                    "message for {src}: {:?} lacks {fragment:?}",
                    e.message
                );
                assert!(e.span.is_some(), "no span for {src}");
            }
        }
    }
}

#[test]
fn literals_evaluate_to_themselves() {
    ok(&[
        ("nil", "nil"),
        ("true", "true"),
        ("42", "42"),
        ("-1.5", "-1.5"),
        ("\"hi\"", "\"hi\""),
        (":a/b", ":a/b"),
        ("[1 [2]]", "[1 [2]]"),
        ("{:b (+ 1 1) :a 1}", "{:a 1 :b 2}"),
        ("()", "()"),
        ("", "nil"),
    ]);
}

#[test]
fn special_forms() {
    ok(&[
        ("(do 1 2 3)", "3"),
        ("(do)", "nil"),
        ("(let [x 1 y (+ x 1)] [x y])", "[1 2]"),
        ("(let [[a b & r] [1 2 3 4]] [a b r])", "[1 2 (3 4)]"),
        ("(let [[a [b c]] [1 [2 3]]] (+ a b c))", "6"),
        ("(let [[a b :as all] [1 2]] all)", "[1 2]"),
        (
            "(let [{:keys [a b] :as m} {:a 1 :b 2 :c 3}] [a b (count m)])",
            "[1 2 3]",
        ),
        ("(let [{:keys [a z] :or {z 9}} {:a 1}] [a z])", "[1 9]"),
        ("(let [{x :x} {:x 5}] x)", "5"),
        ("(let [_ 1 x 2] x)", "2"),
        ("(if true 1 2)", "1"),
        ("(if nil 1 2)", "2"),
        ("(if false 1)", "nil"),
        ("(when 1 2 3)", "3"),
        ("(when false 2)", "nil"),
        ("(cond false 1 nil 2 :else 3)", "3"),
        ("(cond false 1)", "nil"),
        ("(and)", "true"),
        ("(and 1 2)", "2"),
        ("(and 1 nil 2)", "nil"),
        ("(or)", "nil"),
        ("(or nil false 3)", "3"),
        ("((fn [x] (* x x)) 5)", "25"),
        ("((fn [& xs] xs) 1 2)", "(1 2)"),
        ("((fn f ([] 0) ([x] x) ([x y] (+ x y))) 1 2)", "3"),
        ("(do (defn sq [x] (* x x)) (sq 4))", "16"),
        ("(do (defn f \"doc\" [x] x) (f 1))", "1"),
        (
            "(do (defn fact [n] (if (<= n 1) 1 (* n (fact (- n 1))))) (fact 10))",
            "3628800",
        ),
        ("(do (def x 10) (+ x 1))", "11"),
        (
            "(let [make (fn [n] (fn [x] (+ x n))) add2 (make 2)] (add2 3))",
            "5",
        ),
        ("(match 1 1 :one 2 :two _ :other)", ":one"),
        ("(match 5 1 :one x (* x 2))", "10"),
        ("(match [1 2] [a b] (+ a b))", "3"),
        ("(match [1 2 3] [a & r] r)", "(2 3)"),
        (
            "(match {:status \"ok\" :v 3} {:status \"err\"} 0 {:status \"ok\" :v v} v)",
            "3",
        ),
        ("(match \"x\" \"y\" 1 _ 2)", "2"),
        ("(match nil nil :nil _ :x)", ":nil"),
        ("(try (/ 1 0) (catch e (:kind e)))", ":division_by_zero"),
        ("(try (throw \"boom\") (catch e (:message e)))", "\"boom\""),
        ("(try (throw {:code 7}) (catch e (:code e)))", "7"),
        ("(try (throw 7) (catch e (:value e)))", "7"),
        ("(try 1 (catch e 2))", "1"),
        ("(try (nth [] 1) (catch :index e :caught))", ":caught"),
        (
            "(try (try (/ 1 0) (catch :type e :inner)) (catch e :outer))",
            ":outer",
        ),
        ("(try (/ 1 0) (catch Exception e :any))", ":any"),
        ("(try 1 (finally 2))", "1"),
        ("(quote (a b))", "(a b)"),
        ("'x", "x"),
        ("'{:a b}", "{:a b}"),
    ]);
}

#[test]
fn special_form_errors() {
    err(&[
        ("(let [x] x)", ErrorKind::BadForm, "even number"),
        ("(let x 1)", ErrorKind::BadForm, "binding vector"),
        ("(let [1 2] 1)", ErrorKind::BadForm, "binding pattern"),
        ("(if)", ErrorKind::BadForm, "if takes 2 to 3"),
        ("(cond 1)", ErrorKind::BadForm, "pairs"),
        (
            "(match 3 1 :one)",
            ErrorKind::NoMatch,
            "no match clause matched 3",
        ),
        ("(match 3 1)", ErrorKind::BadForm, "pairs"),
        ("(fn)", ErrorKind::BadForm, "parameter vector"),
        ("(fn 1)", ErrorKind::BadForm, "parameter vector"),
        (
            "((fn [x] x))",
            ErrorKind::Arity,
            "expects 1 argument(s), got 0",
        ),
        ("(defn 1 [] 1)", ErrorKind::BadForm, "symbol"),
        ("(def x)", ErrorKind::BadForm, "def takes 2"),
        ("(throw \"bad\")", ErrorKind::Thrown, "bad"),
        ("(step 1 2)", ErrorKind::BadForm, "name string"),
        ("(call)", ErrorKind::BadForm, "capability id"),
        ("(call 42)", ErrorKind::Type, "keyword or string"),
        (
            "(call :ccos.echo {:message \"hi\"})",
            ErrorKind::Host,
            "no host for call to ccos.echo",
        ),
        ("(step-loop)", ErrorKind::BadForm, "binding"),
        ("(step-loop [x 5] x)", ErrorKind::Type, "collection"),
        (
            "undefined-thing",
            ErrorKind::Unbound,
            "unbound symbol `undefined-thing`",
        ),
        ("(1 2)", ErrorKind::Type, "not a function"),
        ("(let [[a] 5] a)", ErrorKind::Type, "vector pattern"),
        ("(try 1 (catch 5 x))", ErrorKind::BadForm, "catch"),
    ]);
}

#[test]
fn unbound_symbols_suggest() {
    let e = eval_str("(filtr odd? [1])").unwrap_err();
    assert_eq!(e.help.as_deref(), Some("did you mean `filter`?"));
    let e = eval_str("step").unwrap_err();
    assert!(e.help.unwrap().contains("special form"));
}

#[test]
fn arithmetic() {
    ok(&[
        ("(+)", "0"),
        ("(+ 1 2 3)", "6"),
        ("(+ 1 2.5)", "3.5"),
        ("(- 5)", "-5"),
        ("(- 10 3 2)", "5"),
        ("(*)", "1"),
        ("(* 2 3.0)", "6.0"),
        ("(/ 6 3)", "2"),
        ("(/ 7 2)", "3.5"),
        ("(/ 2)", "0.5"),
        ("(/ 1.0 4)", "0.25"),
        ("(mod 7 3)", "1"),
        ("(mod -7 2)", "1"),
        ("(mod 7 -2)", "-1"),
        ("(mod 7.5 2)", "1.5"),
        ("(inc 1)", "2"),
        ("(dec 1.5)", "0.5"),
        ("(max 1 5 3)", "5"),
        ("(min 4 2.5)", "2.5"),
        ("(abs -3)", "3"),
        ("(< 1 2 3)", "true"),
        ("(< 1 3 2)", "false"),
        ("(> 3 2.5)", "true"),
        ("(<= 1 1 2)", "true"),
        ("(>= 2 3)", "false"),
        ("(= 1 1)", "true"),
        ("(= 1 1.0)", "false"),
        ("(= [1 {:a 2}] [1 {:a 2}])", "true"),
        ("(not= 1 2)", "true"),
        ("(not nil)", "true"),
    ]);
    err(&[
        (
            "(+ 1 \"a\")",
            ErrorKind::Type,
            "+ expects a number, got string \"a\"",
        ),
        (
            "(+ 9223372036854775807 1)",
            ErrorKind::Overflow,
            "overflow in +",
        ),
        (
            "(* 9223372036854775807 2)",
            ErrorKind::Overflow,
            "overflow in *",
        ),
        (
            "(- -9223372036854775807 2)",
            ErrorKind::Overflow,
            "overflow in -",
        ),
        (
            "(- -9223372036854775807 1 1)",
            ErrorKind::Overflow,
            "overflow",
        ),
        (
            "(abs -9223372036854775808)",
            ErrorKind::Overflow,
            "overflow",
        ),
        (
            "(/ -9223372036854775808 -1)",
            ErrorKind::Overflow,
            "overflow",
        ),
        (
            "(/ 1 0)",
            ErrorKind::DivisionByZero,
            "division by zero in /",
        ),
        ("(/ 1.0 0.0)", ErrorKind::DivisionByZero, "division by zero"),
        ("(mod 1 0)", ErrorKind::DivisionByZero, "mod"),
        ("(-)", ErrorKind::Arity, "- expects at least 1"),
        (
            "(< 1 :a)",
            ErrorKind::Type,
            "< expects a number, got keyword :a",
        ),
        ("(mod 1)", ErrorKind::Arity, "mod expects 2"),
        (
            "(inc nil)",
            ErrorKind::Type,
            "inc expects a number, got nil",
        ),
    ]);
}

#[test]
fn collections() {
    ok(&[
        ("(count [1 2 3])", "3"),
        ("(count \"héllo\")", "5"),
        ("(count nil)", "0"),
        ("(count {:a 1})", "1"),
        ("(empty? [])", "true"),
        ("(empty? \"a\")", "false"),
        ("(nil? nil)", "true"),
        ("(some? 0)", "true"),
        ("(str \"a\" 1 nil :k [1 \"x\"])", "\"a1:k[1 \\\"x\\\"]\""),
        ("(get {:a 1} :a)", "1"),
        ("(get {:a 1} :b 0)", "0"),
        ("(get [5 6] 1)", "6"),
        ("(get [5 6] 9)", "nil"),
        ("(get nil :a)", "nil"),
        ("(get-in {:a {:b [1 2]}} [:a :b 1])", "2"),
        ("(get-in {:a 1} [:x :y] :none)", ":none"),
        ("(assoc {:a 1} :b 2 :c 3)", "{:a 1 :b 2 :c 3}"),
        ("(assoc nil :a 1)", "{:a 1}"),
        ("(assoc [1 2] 1 9)", "[1 9]"),
        ("(assoc [1 2] 2 3)", "[1 2 3]"),
        ("(dissoc {:a 1 :b 2} :a)", "{:b 2}"),
        ("(merge {:a 1} nil {:b 2 :a 3})", "{:a 3 :b 2}"),
        ("(merge)", "nil"),
        ("(keys {:b 1 :a 2})", "[:a :b]"),
        ("(vals {:b 1 :a 2})", "[2 1]"),
        ("(select-keys {:a 1 :b 2} [:a :z])", "{:a 1}"),
        ("(zipmap [:a :b] [1 2])", "{:a 1 :b 2}"),
        ("(contains? {:a nil} :a)", "true"),
        ("(contains? [1] 1)", "false"),
        ("(conj [1] 2 3)", "[1 2 3]"),
        ("(conj '(1) 2)", "(2 1)"),
        ("(conj nil 1)", "(1)"),
        ("(conj {:a 1} [:b 2])", "{:a 1 :b 2}"),
        ("(into [] '(1 2))", "[1 2]"),
        ("(into {} [[:a 1]])", "{:a 1}"),
        ("(concat [1] '(2) nil)", "[1 2]"),
        ("(first [1 2])", "1"),
        ("(first [])", "nil"),
        ("(second [1 2])", "2"),
        ("(last [1 2 3])", "3"),
        ("(rest [1 2 3])", "[2 3]"),
        ("(rest nil)", "[]"),
        ("(nth [1 2] 0)", "1"),
        ("(nth [1 2] 5 :d)", ":d"),
        ("(take 2 [1 2 3])", "[1 2]"),
        ("(drop 2 [1 2 3])", "[3]"),
        ("(reverse [1 2 3])", "[3 2 1]"),
        ("(distinct [1 2 1 3 2])", "[1 2 3]"),
        ("(map inc [1 2 3])", "[2 3 4]"),
        ("(map + [1 2] [10 20 30])", "[11 22]"),
        ("(map :a [{:a 1} {:a 2}])", "[1 2]"),
        ("(filter (fn [x] (> x 1)) [1 2 3])", "[2 3]"),
        ("(remove nil? [1 nil 2])", "[1 2]"),
        ("(every? number? [1 2.0])", "true"),
        ("(reduce + [1 2 3])", "6"),
        ("(reduce + 10 [1 2 3])", "16"),
        ("(reduce + [])", "0"),
        ("(apply + 1 [2 3])", "6"),
        ("(identity 5)", "5"),
        ("(range 4)", "[0 1 2 3]"),
        ("(range 1 4)", "[1 2 3]"),
        ("(range 10 0 -3)", "[10 7 4 1]"),
        ("(range 5 1)", "[]"),
        ("(sort [3 1 2])", "[1 2 3]"),
        ("(sort [\"b\" \"a\"])", "[\"a\" \"b\"]"),
        ("(sort-by :n [{:n 2} {:n 1}])", "[{:n 1} {:n 2}]"),
        ("(list 1 2)", "(1 2)"),
        ("(vector 1 2)", "[1 2]"),
        ("(hash-map :b 1 :a 2)", "{:a 2 :b 1}"),
        ("(:a {:a 1})", "1"),
        ("(:a {:b 1} :dflt)", ":dflt"),
        ("({:a 1} :a)", "1"),
        ("(keyword \"x\")", ":x"),
        ("(name :x)", "\"x\""),
        (
            "[(string? \"\") (int? 1) (float? 1.0) (map? {}) (vector? []) (keyword? :a) (fn? inc) (boolean? false) (seq? '())]",
            "[true true true true true true true true true]",
        ),
    ]);
    err(&[
        (
            "(count 5)",
            ErrorKind::Type,
            "count expects a collection or string, got int 5",
        ),
        (
            "(count 1 2)",
            ErrorKind::Arity,
            "count expects 1 argument(s), got 2",
        ),
        ("(nth [1] 3)", ErrorKind::Index, "nth index 3 out of range"),
        ("(assoc {:a 1} :b)", ErrorKind::Arity, "assoc"),
        ("(assoc [1] 5 1)", ErrorKind::Index, "out of range"),
        (
            "(map inc 5)",
            ErrorKind::Type,
            "map expects a collection, got int 5",
        ),
        ("(range 1 2 0)", ErrorKind::Type, "step must not be zero"),
        ("(keyword \"a b\")", ErrorKind::Type, "valid keyword name"),
        ("(merge 1)", ErrorKind::Type, "merge expects a map"),
        ("(reduce)", ErrorKind::Arity, "reduce expects 2 to 3"),
        ("(hash-map 1)", ErrorKind::Arity, "key/value"),
        ("(:a)", ErrorKind::Arity, "1 or 2"),
    ]);
}

#[test]
fn strings_and_parsing() {
    ok(&[
        ("(split \"a,b,,c\" \",\")", "[\"a\" \"b\" \"\" \"c\"]"),
        ("(split \"ab\" \"\")", "[\"a\" \"b\"]"),
        ("(join [\"a\" \"b\"])", "\"ab\""),
        ("(join \", \" [1 \"b\" :c])", "\"1, b, :c\""),
        ("(upper-case \"abc\")", "\"ABC\""),
        ("(lower-case \"ÀB\")", "\"àb\""),
        ("(trim \"  x \\n\")", "\"x\""),
        ("(includes? \"hello\" \"ell\")", "true"),
        ("(starts-with? \"hello\" \"he\")", "true"),
        ("(ends-with? \"hello\" \"lo\")", "true"),
        ("(subs \"héllo\" 1 3)", "\"él\""),
        ("(replace \"a-b-c\" \"-\" \"+\")", "\"a+b+c\""),
        ("(parse-int \" 42 \")", "42"),
        ("(parse-int 7)", "7"),
        ("(parse-float \"2.5\")", "2.5"),
        ("(parse-float 2)", "2.0"),
        (
            "(parse-json \"{\\\"a\\\": [1, 2.5, null, true, \\\"s\\\"]}\")",
            "{:a [1 2.5 nil true \"s\"]}",
        ),
        ("(parse-json \"10\")", "10"),
        ("(parse-json 10)", "10"),
        (
            "(to-json {:a [1 nil :k] \"b\" true})",
            "\"{\\\"b\\\":true,\\\"a\\\":[1,null,\\\"k\\\"]}\"",
        ),
    ]);
    err(&[
        (
            "(parse-int \"4x\")",
            ErrorKind::Parse,
            "parse-int: \"4x\" is not an integer",
        ),
        (
            "(parse-int \"99999999999999999999\")",
            ErrorKind::Parse,
            "not an integer",
        ),
        ("(parse-float \"x\")", ErrorKind::Parse, "not a number"),
        (
            "(parse-json \"{bad\")",
            ErrorKind::Parse,
            "invalid JSON at line 1 column 2",
        ),
        ("(to-json inc)", ErrorKind::Type, "no JSON form"),
        (
            "(split 1 \",\")",
            ErrorKind::Type,
            "split expects a string, got int 1",
        ),
        (
            "(upper-case nil)",
            ErrorKind::Type,
            "upper-case expects a string, got nil",
        ),
        ("(subs \"abc\" 2 9)", ErrorKind::Index, "out of bounds"),
        (
            "(replace \"a\" \"\" \"b\")",
            ErrorKind::Type,
            "must not be empty",
        ),
    ]);
}

#[test]
fn limits_stop_runaway_programs() {
    // Infinite recursion comes back as an error, not a stack overflow.
    let e = eval_str("(do (defn f [n] (f (+ n 1))) (f 0))").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit);
    assert!(e.message.contains("recursion depth"), "{}", e.message);

    // Deep but bounded recursion works.
    let v = eval_str("(do (defn down [n] (if (= n 0) :done (down (- n 1)))) (down 2000))").unwrap();
    assert_eq!(v.to_string(), ":done");

    let tight = Limits {
        max_steps: 1000,
        ..Limits::default()
    };
    let e = Evaluator::new(&crate::PureHost)
        .with_limits(tight)
        .eval_str("(do (defn loop-forever [n] (if false n (loop-forever n))) (loop-forever 1))")
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit);

    let small = Limits {
        max_collection_size: 10,
        ..Limits::default()
    };
    let ev = Evaluator::new(&crate::PureHost).with_limits(small);
    assert_eq!(
        ev.eval_str("(range 100)").unwrap_err().kind,
        ErrorKind::Limit
    );
    assert_eq!(
        ev.eval_str("(str \"abcdef\" \"ghijkl\")").unwrap_err().kind,
        ErrorKind::Limit
    );

    let few = Limits {
        max_loop_iterations: 3,
        ..Limits::default()
    };
    let ev = Evaluator::new(&crate::PureHost).with_limits(few);
    assert_eq!(
        ev.eval_str("(step-loop [x [1 2 3 4]] x)").unwrap_err().kind,
        ErrorKind::Limit
    );
    assert_eq!(
        ev.eval_str("(step-loop true 1)").unwrap_err().kind,
        ErrorKind::Limit
    );
}

/// A host's denial is never caught by the plan.
#[test]
fn denials_cannot_be_caught() {
    struct Denying;
    impl crate::Host for Denying {
        fn call(&self, req: crate::CallRequest<'_>) -> crate::Result<Value> {
            Err(RtfsError::new(
                ErrorKind::Denied,
                format!("{} denied", req.capability),
            ))
        }
    }
    let forms = crate::parse(r#"(try (call :x.y 1) (catch e "caught") (finally 1))"#).unwrap();
    let e = crate::Evaluator::new(&Denying)
        .eval_program(&forms)
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Denied);
    let forms = crate::parse(r#"(try (call :x.y 1) (catch :denied e "caught"))"#).unwrap();
    let e = crate::Evaluator::new(&Denying)
        .eval_program(&forms)
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Denied);
}

#[test]
fn limit_errors_cannot_be_caught() {
    let e = eval_str("(do (defn f [n] (f n)) (try (f 0) (catch e :swallowed)))").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit);
    // Nor by a `finally` that throws: its error would be catchable.
    for src in [
        "(do (defn f [n] (f n)) (try (try (f 0) (finally (throw \"masked\"))) (catch e :swallowed)))",
        "(do (defn f [n] (f n)) (try (try (f 0) (catch e 1) (finally (throw \"m\"))) (catch e :swallowed)))",
    ] {
        let e = eval_str(src).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Limit, "{src}");
    }
}

/// After an uncatchable error nothing more runs: `finally` included, so a
/// denied run makes no further call.
#[test]
fn finally_does_not_run_after_a_denial() {
    struct Denies(Mutex<Vec<String>>);
    impl Host for Denies {
        fn call(&self, req: CallRequest<'_>) -> Result<Value> {
            self.0.lock().unwrap().push(req.capability.to_string());
            if req.capability == "denied.cap" {
                return Err(RtfsError::new(ErrorKind::Denied, "denied by policy"));
            }
            Ok(Value::Nil)
        }
    }
    let host = Denies(Mutex::new(vec![]));
    let e = Evaluator::new(&host)
        .eval_str(
            "(try (try (call :denied.cap) (finally (call :after.denial) (throw \"m\"))) (catch e :swallowed))",
        )
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Denied);
    assert_eq!(*host.0.lock().unwrap(), vec!["denied.cap".to_string()]);
}

/// A host that answers calls from a table, records step events, and
/// optionally runs parallel branches on threads.
#[derive(Default)]
struct Recorder {
    events: Mutex<Vec<String>>,
    calls: Mutex<Vec<String>>,
    threaded: bool,
}

impl Host for Recorder {
    fn call(&self, req: CallRequest<'_>) -> Result<Value> {
        self.calls.lock().unwrap().push(format!(
            "{} {} @{}",
            req.capability,
            Value::vector(req.args.clone()),
            req.step_path
        ));
        match req.capability {
            "ccos.echo" => Ok(req
                .args
                .first()
                .and_then(|a| a.get_key("message").cloned())
                .unwrap_or(Value::Nil)),
            "ccos.math.add" => crate::eval_str(&format!("(+ {} {})", req.args[0], req.args[1])),
            "fail" => Err(RtfsError::new(ErrorKind::Host, "capability fail failed")),
            other => Ok(Value::string(other)),
        }
    }

    fn step_event(&self, e: &StepEvent<'_>) {
        let phase = match e.phase {
            StepPhase::Started => "start".to_string(),
            StepPhase::Succeeded(v) => format!("ok {v}"),
            StepPhase::Failed(err) => format!("err {}", err.message),
        };
        self.events.lock().unwrap().push(format!(
            "{} {} {} {}",
            e.path,
            e.kind.as_str(),
            e.name,
            phase
        ));
    }

    fn run_parallel<'a>(&self, branches: Vec<crate::Branch<'a>>) -> Vec<Result<Value>> {
        if !self.threaded {
            return branches.into_iter().map(|b| b()).collect();
        }
        std::thread::scope(|s| {
            let handles: Vec<_> = branches.into_iter().map(|b| s.spawn(b)).collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err(RtfsError::new(ErrorKind::Host, "branch panicked")))
                })
                .collect()
        })
    }
}

#[test]
fn steps_report_to_the_host() {
    let host = Recorder::default();
    let v = Evaluator::new(&host)
        .eval_str(r#"(do (step "Greet" (call :ccos.echo {:message "hi"})) (step "Add" (call :ccos.math.add 2 3)))"#)
        .unwrap();
    assert_eq!(v.to_string(), "5");
    assert_eq!(
        *host.events.lock().unwrap(),
        vec![
            "1 step Greet start",
            "1 step Greet ok \"hi\"",
            "2 step Add start",
            "2 step Add ok 5",
        ]
    );
    assert_eq!(
        *host.calls.lock().unwrap(),
        vec!["ccos.echo [{:message \"hi\"}] @1", "ccos.math.add [2 3] @2"]
    );
}

#[test]
fn step_failure_is_reported_and_stops_the_plan() {
    let host = Recorder::default();
    let e = Evaluator::new(&host)
        .eval_str(r#"(do (step "A" (call :fail)) (step "B" (call :ccos.echo {:message "never"})))"#)
        .unwrap_err();
    assert_eq!(e.message, "capability fail failed");
    assert!(e.span.is_some());
    let events = host.events.lock().unwrap();
    assert_eq!(
        *events,
        vec!["1 step A start", "1 step A err capability fail failed"]
    );
    assert_eq!(host.calls.lock().unwrap().len(), 1);
}

#[test]
fn call_ids_may_be_strings_or_computed() {
    let host = Recorder::default();
    let v = Evaluator::new(&host)
        .eval_str(r#"[(call "x.y") (call (keyword (str "a" ".b"))) (call (str "c.d"))]"#)
        .unwrap();
    assert_eq!(v.to_string(), r#"["x.y" "a.b" "c.d"]"#);
}

#[test]
fn step_parallel_keeps_argument_order_and_paths() {
    for threaded in [false, true] {
        let host = Recorder {
            threaded,
            ..Default::default()
        };
        let v = Evaluator::new(&host)
            .eval_str(r#"(step-parallel (step "a" (call :one)) (call :two) (+ 1 2))"#)
            .unwrap();
        assert_eq!(v.to_string(), r#"["one" "two" 3]"#);
        let mut events = host.events.lock().unwrap().clone();
        events.sort();
        assert_eq!(
            events,
            vec![
                "1 parallel parallel ok [\"one\" \"two\" 3]",
                "1 parallel parallel start",
                "1.1 branch branch 1 ok \"one\"",
                "1.1 branch branch 1 start",
                "1.1.1 step a ok \"one\"",
                "1.1.1 step a start",
                "1.2 branch branch 2 ok \"two\"",
                "1.2 branch branch 2 start",
                "1.3 branch branch 3 ok 3",
                "1.3 branch branch 3 start",
            ]
        );
    }
}

#[test]
fn step_parallel_fails_with_first_failing_branch() {
    let host = Recorder {
        threaded: true,
        ..Default::default()
    };
    let e = Evaluator::new(&host)
        .eval_str("(step-parallel (call :ok) (call :fail) (/ 1 0))")
        .unwrap_err();
    assert_eq!(e.message, "capability fail failed");
}

#[test]
fn step_loop_forms() {
    let host = Recorder::default();
    let ev = Evaluator::new(&host);
    assert_eq!(
        ev.eval_str("(step-loop [x [1 2 3]] (* x 10))")
            .unwrap()
            .to_string(),
        "[10 20 30]"
    );
    assert_eq!(
        ev.eval_str("(step-loop \"pairs\" [[k v] {:a 1}] [v k])")
            .unwrap()
            .to_string(),
        "[[1 :a]]"
    );
    assert_eq!(
        ev.eval_str("(step-loop false 1)").unwrap().to_string(),
        "[]"
    );
    let events = host.events.lock().unwrap();
    assert!(events.contains(&"1 loop loop start".to_string()));
    assert!(events.contains(&"1.3 iteration loop[2] ok 30".to_string()));
    assert!(events.contains(&"1.1 iteration pairs[0] ok [1 :a]".to_string()));
}

#[test]
fn evaluation_is_deterministic() {
    let src = r#"(do (def m {:z 1 :a 2 "k" [3 4]})
                     (step-parallel (step "x" (call :p {:m m})) (step-loop [k (keys m)] (call :q k))))"#;
    let run = || {
        let host = Recorder {
            threaded: true,
            ..Default::default()
        };
        let v = Evaluator::new(&host).eval_str(src).unwrap();
        let mut ev = host.events.lock().unwrap().clone();
        ev.sort();
        let mut calls = host.calls.lock().unwrap().clone();
        calls.sort();
        (v.to_string(), ev, calls)
    };
    let first = run();
    for _ in 0..5 {
        assert_eq!(run(), first);
    }
}

#[test]
fn predefined_bindings() {
    let ev = Evaluator::new(&crate::PureHost);
    ev.define("context", crate::eval_str("{:n \"5\"}").unwrap());
    assert_eq!(
        ev.eval_str("(parse-int (:n context))").unwrap().to_string(),
        "5"
    );
}

#[test]
fn reference_library_aliases() {
    ok(&[
        ("(bool? false)", "true"),
        ("(bool? nil)", "false"),
        ("(string-p \"a\")", "true"),
        ("(!= 1 2)", "true"),
        ("(!= 1 1)", "false"),
        ("(substring \"hello\" 1 3)", "\"el\""),
        ("(substring \"hello\" 2)", "\"llo\""),
        ("(string-contains \"hello\" \"ell\")", "true"),
        ("(string-contains? \"hello\" \"xyz\")", "false"),
        ("(string-length \"héllo\")", "5"),
        ("(length [1 2 3])", "3"),
        ("(length \"abc\")", "3"),
        ("(length {:a 1})", "1"),
        ("(string-join \", \" [\"a\" \"b\"])", "\"a, b\""),
        ("(string-upper \"ab\")", "\"AB\""),
        ("(string-lower \"AB\")", "\"ab\""),
        ("(string-trim \"  a \")", "\"a\""),
        ("(serialize-json {:a [1 nil]})", "\"{\\\"a\\\":[1,null]}\""),
    ]);
    err(&[
        (
            "(string-length [1])",
            ErrorKind::Type,
            "string-length expects a string",
        ),
        ("(!=)", ErrorKind::Arity, "!= expects at least 1"),
    ]);
}

#[test]
fn reference_library_functions() {
    ok(&[
        ("(type-name 1)", "\"integer\""),
        ("(type-name 1.5)", "\"float\""),
        ("(type-name true)", "\"boolean\""),
        ("(type-name \"s\")", "\"string\""),
        ("(type-name nil)", "\"nil\""),
        ("(type-name :k)", "\"keyword\""),
        ("(type-name 'x)", "\"symbol\""),
        ("(type-name [])", "\"vector\""),
        ("(type-name '())", "\"list\""),
        ("(type-name {})", "\"map\""),
        ("(type-name inc)", "\"function\""),
        ("(int 3.7)", "3"),
        ("(int -3.7)", "-3"),
        ("(int \" 42 \")", "42"),
        ("(int 5)", "5"),
        ("(float 2)", "2.0"),
        ("(float \"2.5\")", "2.5"),
        ("(symbol? 'a)", "true"),
        ("(symbol? :a)", "false"),
        ("(list? '(1))", "true"),
        ("(list? [1])", "false"),
        ("(even? 4)", "true"),
        ("(even? -3)", "false"),
        ("(odd? -3)", "true"),
        ("(zero? 0.0)", "true"),
        ("(pos? 2)", "true"),
        ("(neg? -0.5)", "true"),
        ("(sqrt 16)", "4.0"),
        ("(pow 2 10)", "1024"),
        ("(pow 2 -1)", "0.5"),
        ("(pow 2.0 3)", "8.0"),
        ("(factorial 0)", "1"),
        ("(factorial 5)", "120"),
        ("(factorial 20)", "2432902008176640000"),
        ("(update {:a 1} :a inc)", "{:a 2}"),
        ("(update {:a 1} :a + 10 5)", "{:a 16}"),
        ("(update {} :n (fn [x] (if x (inc x) 0)))", "{:n 0}"),
        ("(update [1 2] 0 dec)", "[0 2]"),
        ("(update-in {:a {:b 1}} [:a :b] inc)", "{:a {:b 2}}"),
        ("(update-in {} [:a :b] (fn [_] 1))", "{:a {:b 1}}"),
        ("(update-in {:xs [1 2]} [:xs 1] * 10)", "{:xs [1 20]}"),
        ("(assoc-in {} [:a :b] 1)", "{:a {:b 1}}"),
        ("(assoc-in {:a {:c 3}} [:a :b] 1)", "{:a {:b 1 :c 3}}"),
        ("(assoc-in [{:a 1}] [0 :a] 2)", "[{:a 2}]"),
        ("(cons 0 [1 2])", "[0 1 2]"),
        ("(cons 0 '(1 2))", "(0 1 2)"),
        ("(cons 0 nil)", "(0)"),
        ("(partition 2 [1 2 3 4 5])", "[[1 2] [3 4]]"),
        ("(partition 2 1 [1 2 3])", "[[1 2] [2 3]]"),
        ("(partition-all 2 [1 2 3 4 5])", "[[1 2] [3 4] [5]]"),
        ("(partition 3 [])", "[]"),
        (
            "(group-by :state [{:state :open :id 1} {:state :closed :id 2} {:state :open :id 3}])",
            "{:closed [{:id 2 :state :closed}] :open [{:id 1 :state :open} {:id 3 :state :open}]}",
        ),
        ("(group-by even? [1 2 3 4])", "{false [1 3] true [2 4]}"),
        (
            "(group-by count [\"a\" \"bb\" \"c\"])",
            "{1 [\"a\" \"c\"] 2 [\"bb\"]}",
        ),
        ("(frequencies [:a :b :a 1])", "{1 1 :a 2 :b 1}"),
        ("(subvec [1 2 3 4] 1 3)", "[2 3]"),
        ("(subvec [1 2 3] 1)", "[2 3]"),
        ("(map-indexed (fn [i x] [i x]) [:a :b])", "[[0 :a] [1 :b]]"),
        ("(map-indexed vector \"ab\")", "[[0 \"a\"] [1 \"b\"]]"),
        ("(find {:a 1} :a)", "[:a 1]"),
        ("(find {:a 1} :b)", "nil"),
        ("(deref 5)", "5"),
    ]);
    err(&[
        (
            "(int \"abc\")",
            ErrorKind::Parse,
            "int: \"abc\" is not an integer",
        ),
        ("(int \"3.5\")", ErrorKind::Parse, "is not an integer"),
        ("(int 1e300)", ErrorKind::Overflow, "does not fit"),
        ("(int ##NaN)", ErrorKind::Overflow, "does not fit"),
        (
            "(int nil)",
            ErrorKind::Type,
            "int expects a number or a string, got nil",
        ),
        (
            "(float \"x\")",
            ErrorKind::Parse,
            "float: \"x\" is not a number",
        ),
        ("(even? 1.0)", ErrorKind::Type, "even? expects an integer"),
        ("(sqrt -1)", ErrorKind::Type, "negative"),
        ("(pow 10 100)", ErrorKind::Overflow, "overflow in pow"),
        (
            "(factorial 21)",
            ErrorKind::Overflow,
            "overflow in factorial",
        ),
        ("(factorial -1)", ErrorKind::Type, "negative"),
        (
            "(update {:a 1})",
            ErrorKind::Arity,
            "update expects at least 3",
        ),
        (
            "(update {:a \"x\"} :a inc)",
            ErrorKind::Type,
            "inc expects a number",
        ),
        (
            "(update 5 :a inc)",
            ErrorKind::Type,
            "update expects a map or vector",
        ),
        ("(assoc-in {} [] 1)", ErrorKind::Type, "non-empty key path"),
        (
            "(assoc-in [1] [5] 1)",
            ErrorKind::Index,
            "assoc-in index 5 out of range",
        ),
        ("(cons 1 2)", ErrorKind::Type, "cons expects a collection"),
        ("(partition 0 [1])", ErrorKind::Type, "positive size"),
        (
            "(count (partition 1000 1 (range 100000)))",
            ErrorKind::Limit,
            "collection size limit",
        ),
        ("(subvec [1 2] 1 5)", ErrorKind::Index, "out of bounds"),
        ("(subvec [1 2] -1)", ErrorKind::Index, "out of bounds"),
        ("(map-indexed inc [1])", ErrorKind::Arity, "inc expects 1"),
    ]);
}

#[test]
fn reader_forms_evaluate() {
    ok(&[
        ("(map #(* % %) [1 2 3])", "[1 4 9]"),
        ("(#(+ %1 %2) 3 4)", "7"),
        ("(#(vector %2) 1 2)", "[2]"),
        ("(#(apply + %&) 1 2 3)", "6"),
        ("(#(count %&))", "0"),
        ("(filter #(> (:n %) 1) [{:n 1} {:n 2}])", "[{:n 2}]"),
        ("(let [x 5] @x)", "5"),
        ("@[1 2]", "[1 2]"),
        ("^{:doc \"ignored\"} (+ 1 2)", "3"),
        ("(do ^{:doc \"sq\"} (defn sq [x] (* x x)) (sq 3))", "9"),
        ("(do (defn ^:private f [x] x) (f 1))", "1"),
        ("[^:a 1 ^{:b 2} :k]", "[1 :k]"),
        ("(+ 0x10 0o10 0b10)", "26"),
    ]);
    err(&[
        (
            "(#(+ % 1))",
            ErrorKind::Arity,
            "expects 1 argument(s), got 0",
        ),
        ("(+ % 1)", ErrorKind::Unbound, "unbound symbol `%`"),
    ]);
    let e = eval_str("(inc %1)").unwrap_err();
    assert!(e.help.unwrap_or_default().contains("#(...)"));
}

#[test]
fn type_annotations_are_checked_where_values_meet_them() {
    ok(&[
        (
            "(do (defn add [x :int y :int] :int (+ x y)) (add 2 3))",
            "5",
        ),
        (
            "(do (defn add [x : Int y : Int] : Int (+ x y)) (add 2 3))",
            "5",
        ),
        ("(do (defn add [x:int y:int]:int (+ x y)) (add 2 3))", "5"),
        ("((fn [x :float] :number (* x 2)) 3)", "6"),
        ("((fn [xs [:vector :int]] (count xs)) [1 2])", "2"),
        (
            "((fn [m [:map [:name :string]]] (:name m)) {:name \"a\" :extra 1})",
            "\"a\"",
        ),
        ("((fn [[a b] [:tuple :int :int]] (+ a b)) [1 2])", "3"),
        ("((fn [x :string?] x) nil)", "nil"),
        ("((fn [x (or :int :string)] x) \"s\")", "\"s\""),
        ("((fn [& xs :int] (apply + xs)) 1 2 3)", "6"),
        ("((fn [x :MyType] x) 5)", "5"),
        ("(let [x :int 1 y :string \"a\"] [x y])", "[1 \"a\"]"),
        ("(let [x : Int 1] x)", "1"),
        ("(let [x :a y :b] [x y])", "[:a :b]"),
        ("(let [[a b] [:vector :int] [1 2]] (+ a b))", "3"),
        ("(do (def n :int 5) n)", "5"),
        ("(step-loop [x :int [1 2]] (* x 10))", "[10 20]"),
        ("(step-loop [x : Int [1 2]] x)", "[1 2]"),
        ("((fn [] :done))", ":done"),
        ("((fn [x] :int (inc x)) 1)", "2"),
        (
            "(do (defn f ([x :int] :int x) ([x y] (+ x y))) [(f 1) (f 1 2)])",
            "[1 3]",
        ),
    ]);
    err(&[
        (
            "(do (defn add [x :int y :int] (+ x y)) (add 1 \"2\"))",
            ErrorKind::Type,
            "parameter `y` of `add`: expected :int, got string \"2\"",
        ),
        (
            "(do (defn f [x] :int (str x)) (f 1))",
            ErrorKind::Type,
            "return value of `f`: expected :int, got string \"1\"",
        ),
        (
            "((fn [m [:map [:age :int]]] m) {:age \"x\"})",
            ErrorKind::Type,
            "parameter `m` of `fn`: at [:age]: expected :int, got string \"x\"",
        ),
        (
            "((fn [& xs :int] xs) 1 :b)",
            ErrorKind::Type,
            "argument 2 (in `& xs`) of `fn`: expected :int, got keyword :b",
        ),
        (
            "(let [x :int \"a\"] x)",
            ErrorKind::Type,
            "let binding `x`: expected :int, got string \"a\"",
        ),
        (
            "(step-loop [x :int [1 \"b\"]] x)",
            ErrorKind::Type,
            "step-loop item 1 (`x`): expected :int, got string \"b\"",
        ),
        (
            "(def n :int \"five\")",
            ErrorKind::Type,
            "def `n`: expected :int, got string \"five\"",
        ),
        (
            "(fn [x [:map-of :int]] x)",
            ErrorKind::BadForm,
            "invalid type annotation [:map-of :int]",
        ),
        ("(let [x 1 y] x)", ErrorKind::BadForm, "even number"),
        (
            "(let [x :int 1 2] x)",
            ErrorKind::BadForm,
            "binding pattern",
        ),
        (
            "(fn [x & y :int z] 1)",
            ErrorKind::BadForm,
            "exactly one parameter after `&`",
        ),
        (
            "(fn [:int] 1)",
            ErrorKind::BadForm,
            "a parameter before this type annotation",
        ),
    ]);
    // The error points at the call and at the annotation.
    let src = "(do (defn add [x :int] x) (add \"a\"))";
    let e = eval_str(src).unwrap_err();
    let s = e.span.unwrap();
    assert_eq!(&src[s.start..s.end], "(add \"a\")");
    let (rel, label) = *e.related.unwrap();
    assert_eq!(&src[rel.start..rel.end], ":int");
    assert_eq!(label, "type declared here");
    // A type error is catchable like any other.
    ok(&[(
        "(try ((fn [x :int] x) \"a\") (catch :type e :caught))",
        ":caught",
    )]);
}

#[test]
fn let_bound_functions_see_themselves_and_their_siblings() {
    ok(&[
        (
            "(let [fact (fn [n] (if (<= n 1) 1 (* n (fact (dec n)))))] (fact 10))",
            "3628800",
        ),
        (
            "(let [ev? (fn [n] (if (= n 0) true (od? (dec n))))
                   od? (fn [n] (if (= n 0) false (ev? (dec n))))]
               [(ev? 10) (od? 7) (ev? 3)])",
            "[true true false]",
        ),
        // a named fn sees its own name
        (
            "((fn fact [n] (if (<= n 1) 1 (* n (fact (dec n))))) 5)",
            "120",
        ),
        (
            "(let [f (fn g [n] (if (= n 0) :done (g (dec n))))] (f 3))",
            ":done",
        ),
        // closures returned out of the let keep working
        (
            "(let [count-down (fn [n] (if (= n 0) [] (conj (count-down (dec n)) n)))] (map count-down [2 3]))",
            "[[1 2] [1 2 3]]",
        ),
        (
            "(let [walk (fn [t] (if (vector? t) (reduce + 0 (map walk t)) t))] (walk [1 [2 [3 4]] 5]))",
            "15",
        ),
        // annotated recursive binding
        (
            "(let [f :fn (fn [n] (if (= n 0) 0 (f (dec n))))] (f 3))",
            "0",
        ),
        // a later binding of the same name still wraps the earlier one
        (
            "(let [f (fn [x] (* x 2)) f (fn [x] (inc (f x)))] (f 5))",
            "11",
        ),
        // functions that do not refer to each other bind as before
        ("(let [a (fn [] 1) b (fn [] (+ (a) 1))] (b))", "2"),
        // #(...) inside a let group
        ("(let [sq #(* % %) f (fn [x] (sq x))] (f 4))", "16"),
    ]);
    // Runaway mutual recursion still ends at the depth limit.
    let e = eval_str("(let [a (fn [] (b)) b (fn [] (a))] (a))").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit);
}

#[test]
fn several_catch_clauses_match_by_kind() {
    ok(&[
        (
            "(try (/ 1 0) (catch :type e :type) (catch :division-by-zero e :div))",
            ":div",
        ),
        (
            "(try (/ 1 0) (catch :division_by_zero e :div) (catch e :other))",
            ":div",
        ),
        (
            "(try (nth [] 3) (catch :type e :t) (catch e (:kind e)))",
            ":index",
        ),
        (
            "(try (call :x.y) (catch RuntimeError e :runtime) (catch HostError e :host))",
            ":host",
        ),
        (
            "(try (+ 1 \"a\") (catch HostError e :host) (catch RuntimeError e :runtime))",
            ":runtime",
        ),
        ("(try (+ 1 \"a\") (catch TypeError e :type))", ":type"),
        ("(try (inc) (catch ArityError e :arity))", ":arity"),
        ("(try (/ 1 0) (catch ArithmeticException e :math))", ":math"),
        (
            "(try (throw :not-found) (catch :denied e 1) (catch :not-found e 2))",
            "2",
        ),
        (
            "(try (throw {:kind :not-found :id 3}) (catch :not-found e (:id e)))",
            "3",
        ),
        (
            "(try (throw {:type :bad}) (catch :good e 1) (catch :bad e 2) (catch e 3))",
            "2",
        ),
        ("(try (throw \"x\") (catch _ e :any))", ":any"),
        ("(try 1 (catch :a e 2) (catch :b e 3) (finally 4))", "1"),
        // a handler's own error propagates
        (
            "(try (try (/ 1 0) (catch :division-by-zero e (throw \"again\")) (catch e :no)) (catch e (:message e)))",
            "\"again\"",
        ),
    ]);
    err(&[
        (
            "(try (/ 1 0) (catch :type e 1) (catch :index e 2))",
            ErrorKind::DivisionByZero,
            "division by zero",
        ),
        (
            "(try 1 (finally 2) (catch e 3))",
            ErrorKind::BadForm,
            "catch clauses must come before finally",
        ),
        (
            "(try 1 (catch e 2) (catch 5 x))",
            ErrorKind::BadForm,
            "catch expects a symbol",
        ),
    ]);
    // Limits stay uncatchable whatever the clauses say.
    let e = eval_str("(do (defn f [n] (f n)) (try (f 0) (catch RuntimeError e 1) (catch e 2)))")
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit);
}

#[test]
fn threading_and_reference_style_map_destructuring() {
    ok(&[
        ("(-> 5 inc (* 2) (- 1))", "11"),
        ("(->> [1 2 3] (map inc) (reduce +))", "9"),
        ("(-> {:user {:name \"Ada\"}} :user :name)", "\"Ada\""),
        ("(-> 1)", "1"),
        (
            "(let [{:name n :age a} {:name \"Bo\" :age 3}] [n a])",
            "[\"Bo\" 3]",
        ),
        ("(let [{\"id\" i} {\"id\" 7}] i)", "7"),
        (
            "(let [{42 answer :pi p} {42 \"life\" :pi 3.14}] [answer p])",
            "[\"life\" 3.14]",
        ),
        (
            "(let [{:keys [a] \"b\" b :c c} {:a 1 \"b\" 2 :c 3}] [a b c])",
            "[1 2 3]",
        ),
        ("(let [{n :name} {:name \"Cy\"}] n)", "\"Cy\""),
        ("(let [{:user {:keys [id]}} {:user {:id 9}}] id)", "9"),
        ("(let [{:n n :or {n 4}} {}] n)", "4"),
    ]);
    err(&[("(->)", ErrorKind::BadForm, "-> takes at least 1")]);
}
