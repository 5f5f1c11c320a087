//! Every RTFS example in the design documents (`../shared/seeds/`) parses,
//! and evaluates given suitable bindings and a host.

use std::path::PathBuf;
use std::sync::Mutex;

use rtfs::{CallRequest, Evaluator, Host, Result, Value};

fn seeds_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/seeds")
}

/// Fenced code blocks of a markdown text whose first code line opens a form.
fn rtfs_blocks(text: &str) -> Vec<String> {
    let mut out = vec![];
    let mut cur: Option<String> = None;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            match cur.take() {
                Some(block) => {
                    if block.trim_start().starts_with('(') {
                        out.push(block);
                    }
                }
                None => cur = Some(String::new()),
            }
        } else if let Some(b) = cur.as_mut() {
            b.push_str(line);
            b.push('\n');
        }
    }
    out
}

#[test]
fn every_fenced_rtfs_block_in_the_seeds_parses() {
    let dir = seeds_dir();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        assert!(
            std::env::var("CI").is_err(),
            "seeds missing at {}",
            dir.display()
        );
        eprintln!("note: {} not found; skipping", dir.display());
        return;
    };
    let mut files: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    files.sort();
    let mut parsed = 0;
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for block in rtfs_blocks(&text) {
            if let Err(e) = rtfs::parse(&block) {
                panic!(
                    "{}: block does not parse: {}\n{block}",
                    f.display(),
                    e.located_message(&block)
                );
            }
            parsed += 1;
        }
        // Inline examples such as `(call "mcp.tool" {:count (parse-json input_var)})`.
        for (i, _) in text.match_indices("`(call ") {
            let rest = &text[i + 1..];
            let end = rest.find('`').unwrap();
            rtfs::parse_one(&rest[..end]).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            parsed += 1;
        }
    }
    // 3 templates of spec 026, 1 plan of "Plan Generation Modes", 1 inline call.
    assert!(parsed >= 5, "only {parsed} examples found");
}

/// A host that echoes, adds, and records what it was asked.
#[derive(Default)]
struct SeedHost {
    calls: Mutex<Vec<String>>,
}

impl Host for SeedHost {
    fn call(&self, req: CallRequest<'_>) -> Result<Value> {
        self.calls.lock().unwrap().push(format!(
            "{} {}",
            req.capability,
            Value::vector(req.args.clone())
        ));
        match req.capability {
            "ccos.echo" => Ok(req.args[0]
                .get_key("message")
                .cloned()
                .unwrap_or(Value::Nil)),
            "ccos.math.add" => rtfs::eval_str(&format!("(+ {} {})", req.args[0], req.args[1])),
            _ => Ok(Value::map([(
                Value::keyword("called"),
                Value::string(req.capability),
            )])),
        }
    }
}

const PLAN_GENERATION_MODES_EXAMPLE: &str = r#"
(do
  (step "Greet" (call :ccos.echo {:message "hi"}))
  (step "Add" (call :ccos.math.add 2 3)))"#;

#[test]
fn plan_generation_modes_example_runs() {
    let host = SeedHost::default();
    let v = Evaluator::new(&host)
        .eval_str(PLAN_GENERATION_MODES_EXAMPLE)
        .unwrap();
    assert_eq!(v.to_string(), "5");
    assert_eq!(
        *host.calls.lock().unwrap(),
        vec!["ccos.echo [{:message \"hi\"}]", "ccos.math.add [2 3]"]
    );
}

const DIRECT_CALL_TEMPLATE: &str = r#"
(do
  (let [; optionally: adapted-context context
        result (call :<candidate.id> {:context context})]
    {:status "processing"
     :result result
     :context context}))"#;

const ADAPTER_TEMPLATE: &str = r#"
(do
  (let [context-adapted (let [c context]
                           {; renames / coercions applied here
                            :k2 (:k1 c)
                            :n  (parse-int (:s c))})
        missing (filter required-key? (keys-not-in context-adapted))]
    (if (empty? missing)
      (let [result (call :<candidate.id> {:context context-adapted})]
        {:status "processing" :result result :context context-adapted})
      {:status "requires-agent"
       :missing missing
       :context context})))"#;

const REQUIRES_AGENT_TEMPLATE: &str = r#"
(do
  {:status "requires-agent"
   :required_capability "synth.domain.agent.stub"
   :missing <required-keys-missing>
   :context context})"#;

fn with_context<'h>(host: &'h SeedHost, context: &str) -> Evaluator<'h> {
    let ev = Evaluator::new(host);
    ev.define("context", rtfs::eval_str(context).unwrap());
    ev
}

#[test]
fn spec_026_direct_call_template_runs() {
    let host = SeedHost::default();
    let v = with_context(&host, "{:city \"Paris\"}")
        .eval_str(DIRECT_CALL_TEMPLATE)
        .unwrap();
    assert_eq!(
        v.to_string(),
        r#"{:context {:city "Paris"} :result {:called "<candidate.id>"} :status "processing"}"#
    );
}

#[test]
fn spec_026_adapter_template_runs_both_branches() {
    // The template's helper functions, bound as the spec leaves them abstract:
    // keys-not-in lists the keys of the adapted context whose value is nil;
    // every such key is required.
    let helpers = r#"(do (defn keys-not-in [m] (filter (fn [k] (nil? (get m k))) (keys m)))
                         (defn required-key? [k] true))"#;
    let host = SeedHost::default();
    let ev = with_context(&host, "{:k1 \"v\" :s \"42\"}");
    ev.eval_str(helpers).unwrap();
    let v = ev.eval_str(ADAPTER_TEMPLATE).unwrap();
    assert_eq!(
        v.to_string(),
        r#"{:context {:k2 "v" :n 42} :result {:called "<candidate.id>"} :status "processing"}"#
    );

    let host = SeedHost::default();
    let ev = with_context(&host, "{:s \"7\"}");
    ev.eval_str(helpers).unwrap();
    let v = ev.eval_str(ADAPTER_TEMPLATE).unwrap();
    assert_eq!(
        v.to_string(),
        r#"{:context {:s "7"} :missing [:k2] :status "requires-agent"}"#
    );
    assert!(
        host.calls.lock().unwrap().is_empty(),
        "no call when keys are missing"
    );
}

#[test]
fn spec_026_requires_agent_template_runs() {
    let host = SeedHost::default();
    let ev = with_context(&host, "{:city \"Paris\"}");
    ev.define(
        "<required-keys-missing>",
        rtfs::eval_str("[:date]").unwrap(),
    );
    let v = ev.eval_str(REQUIRES_AGENT_TEMPLATE).unwrap();
    assert_eq!(
        v.to_string(),
        r#"{:context {:city "Paris"} :missing [:date] :required_capability "synth.domain.agent.stub" :status "requires-agent"}"#
    );
}

#[test]
fn modular_planner_coercion_example_runs() {
    let host = SeedHost::default();
    let ev = Evaluator::new(&host);
    ev.define("input_var", Value::string("10"));
    let v = ev
        .eval_str(r#"(call "mcp.tool" {:count (parse-json input_var)})"#)
        .unwrap();
    assert_eq!(v.to_string(), r#"{:called "mcp.tool"}"#);
    assert_eq!(*host.calls.lock().unwrap(), vec!["mcp.tool [{:count 10}]"]);
}
