//! The RTFS 2.0 conformance suite (`tests/conformance/*.rtfs`): cases
//! written from the reference implementation's public documentation, each
//! citing its source. See `tests/conformance/README.md` for the format.
//!
//! Every case must behave as its directives say — conformant cases give
//! the documented value (or error), deliberate differences give the value
//! this implementation documents, unsupported features fail — and the
//! tally is printed (`-- --nocapture`).

use std::path::{Path, PathBuf};

use rtfs::{CallRequest, ErrorKind, Evaluator, Host, Result, RtfsError, Value};

/// The capabilities the reference's plan guide documents.
struct ConformanceHost;

impl Host for ConformanceHost {
    fn call(&self, r: CallRequest<'_>) -> Result<Value> {
        match r.capability {
            "ccos.echo" => Ok(Value::Nil),
            "ccos.user.ask" => Ok(Value::string("yes")),
            "test.identity" => Ok(r.args.first().cloned().unwrap_or(Value::Nil)),
            "ccos.math.add" => r
                .args
                .iter()
                .try_fold(Value::Int(0), |acc, a| match (acc, a) {
                    (Value::Int(x), Value::Int(y)) => Ok(Value::Int(x + y)),
                    (_, other) => Err(RtfsError::new(
                        ErrorKind::Host,
                        format!("ccos.math.add: not an integer: {other}"),
                    )),
                }),
            other => Err(RtfsError::new(
                ErrorKind::Host,
                format!("unknown capability {other}"),
            )),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Outcome {
    Value(String),
    Error(String),
    Parses,
    Fails,
}

#[derive(Debug, PartialEq)]
enum Status {
    Conformant,
    Differs,
    Unsupported,
}

struct Case {
    file: String,
    line: usize,
    name: String,
    source: String,
    status: Status,
    why: String,
    want: Outcome,
    program: String,
}

fn conformance_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/conformance")
}

/// The cases of one file.
fn read_cases(path: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let file = path
        .file_name()
        .map(|f| f.to_string_lossy().to_string())
        .unwrap_or_default();
    let mut cases: Vec<Case> = vec![];
    for (i, line) in text.lines().enumerate() {
        let directive = line
            .strip_prefix(";; @")
            .map(|d| d.split_once(' ').unwrap_or((d, "")));
        match directive {
            Some(("case", name)) => cases.push(Case {
                file: file.clone(),
                line: i + 1,
                name: name.trim().to_string(),
                source: String::new(),
                status: Status::Conformant,
                why: String::new(),
                want: Outcome::Parses,
                program: String::new(),
            }),
            Some((key, arg)) => {
                let c = cases
                    .last_mut()
                    .unwrap_or_else(|| panic!("{file}:{}: directive before @case", i + 1));
                let arg = arg.trim().to_string();
                match key {
                    "source" => c.source = arg,
                    "expect" => c.want = Outcome::Value(arg),
                    "error" => {
                        c.want = Outcome::Error(arg.trim_start_matches(':').replace('-', "_"))
                    }
                    "parses" => c.want = Outcome::Parses,
                    "differs" => {
                        c.status = Status::Differs;
                        c.why = arg;
                    }
                    "reference" => {}
                    "unsupported" => {
                        c.status = Status::Unsupported;
                        c.why = arg;
                        c.want = Outcome::Fails;
                    }
                    other => panic!("{file}:{}: unknown directive @{other}", i + 1),
                }
            }
            None => {
                if let Some(c) = cases.last_mut() {
                    c.program.push_str(line);
                    c.program.push('\n');
                }
            }
        }
    }
    for c in &cases {
        assert!(
            !c.source.is_empty(),
            "{}:{}: {} has no @source",
            c.file,
            c.line,
            c.name
        );
        if c.status == Status::Differs {
            assert!(
                text.lines()
                    .skip(c.line)
                    .take(8)
                    .any(|l| l.starts_with(";; @reference")),
                "{}:{}: {} differs but states no @reference value",
                c.file,
                c.line,
                c.name
            );
        }
    }
    cases
}

/// Runs a case; `Err` says how it went instead.
fn run(case: &Case) -> std::result::Result<(), String> {
    let parsed = rtfs::parse(&case.program);
    let got = parsed
        .clone()
        .and_then(|forms| Evaluator::new(&ConformanceHost).eval_program(&forms));
    match (&case.want, got) {
        (Outcome::Parses, _) if parsed.is_ok() => Ok(()),
        (Outcome::Parses, _) => Err(format!("does not parse: {:?}", parsed.err())),
        (Outcome::Fails, Err(_)) => Ok(()),
        (Outcome::Fails, Ok(v)) => Err(format!("now works (gives {v}): mark it conformant")),
        (Outcome::Value(want), Ok(v)) => {
            let want = rtfs::parse_one(want)
                .map(|e| rtfs::print_value(&e.to_value()))
                .unwrap_or_else(|_| want.clone());
            let printed = rtfs::print_value(&v);
            if printed == want {
                Ok(())
            } else {
                Err(format!("gives {printed}, expected {want}"))
            }
        }
        (Outcome::Value(want), Err(e)) => Err(format!(
            "fails with :{} {:?}, expected {want}",
            e.kind.name(),
            e.message
        )),
        (Outcome::Error(kind), Err(e)) if kind == "any" || e.kind.name() == kind => Ok(()),
        (Outcome::Error(kind), Err(e)) => Err(format!(
            "fails with :{} {:?}, expected :{kind}",
            e.kind.name(),
            e.message
        )),
        (Outcome::Error(kind), Ok(v)) => Err(format!("gives {v}, expected error :{kind}")),
    }
}

#[test]
fn conformance_cases_behave_as_documented() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(conformance_dir())
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "rtfs"));
    files.sort();
    let cases: Vec<Case> = files.iter().flat_map(|f| read_cases(f)).collect();
    let mut names = std::collections::BTreeSet::new();
    for c in &cases {
        assert!(
            names.insert((c.file.clone(), c.name.clone())),
            "{}:{}: duplicate case name {}",
            c.file,
            c.line,
            c.name
        );
    }
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            run(c)
                .err()
                .map(|why| format!("{}:{} {}: {why}", c.file, c.line, c.name))
        })
        .collect();
    let count = |s: Status| cases.iter().filter(|c| c.status == s).count();
    let (conformant, differs, unsupported) = (
        count(Status::Conformant),
        count(Status::Differs),
        count(Status::Unsupported),
    );
    eprintln!(
        "RTFS 2.0 conformance: {} cases from {} files; {conformant} conformant, {differs} deliberately different, {unsupported} unsupported; {} not behaving as annotated",
        cases.len(),
        files.len(),
        failures.len()
    );
    for c in cases.iter().filter(|c| c.status != Status::Conformant) {
        let tag = if c.status == Status::Differs {
            "differs"
        } else {
            "unsupported"
        };
        eprintln!("  {tag:11} {}:{} {} — {}", c.file, c.line, c.name, c.why);
    }
    assert!(cases.len() >= 200, "only {} cases", cases.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
