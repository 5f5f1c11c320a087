//! Integration tests of the `ccos` binary: each module runs the real
//! executable with `CCOS_HOME` in a temp dir.

#[path = "it/caps.rs"]
mod caps;
#[path = "it/chain.rs"]
mod chain;
#[path = "it/check.rs"]
mod check;
#[path = "it/eval.rs"]
mod eval;
#[path = "it/governed.rs"]
mod governed;
#[path = "it/intent.rs"]
mod intent;
#[path = "it/plan.rs"]
mod plan;
#[path = "it/plan_llm.rs"]
mod plan_llm;
#[path = "it/run.rs"]
mod run;
#[path = "it/serve.rs"]
mod serve;
#[path = "it/store.rs"]
mod store;
#[path = "it/support.rs"]
mod support;
#[path = "it/synth.rs"]
mod synth;
#[path = "it/understand.rs"]
mod understand;
