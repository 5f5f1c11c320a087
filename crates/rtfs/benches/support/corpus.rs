//! The plan-like corpus of the parse benchmark, shared with the
//! `bench-work` example (a fixed workload for instruction counts).

/// A deterministic plan-like corpus: varied steps, calls, lets, maps,
/// strings with escapes, comments, parallel and loop forms.
pub fn corpus(min_bytes: usize) -> String {
    let caps = [
        "ccos.echo",
        "ccos.math.add",
        "mcp.filesystem.read_text_file",
        "github.issues.list",
        "ccos.data.filter",
    ];
    let mut out = String::new();
    let mut i: u64 = 0;
    while out.len() < min_bytes {
        let cap = caps[(i % caps.len() as u64) as usize];
        out.push_str(&format!(
            r#";; plan {i}: generated for the parse benchmark
(do
  (let [owner "mandubian" repo "ccos-{i}"
        page-size (parse-json "{}")]
    (step "Fetch issues {i}"
      (call :{cap} {{:owner owner :repo repo :perPage page-size :state "all" :labels ["bug" "p{}"]}}))
    (step-parallel
      (step "Greet" (call :ccos.echo {{:message "hello \"world\" {i}\n"}}))
      (step "Add" (call :ccos.math.add {} {}.5)))
    (step-loop [item (range {})]
      (if (> item 2) (call "ccos.echo" {{:message (str "item " item)}}) nil))
    {{:status "processing" :count {} :ratio {}e-3 :ok true :none nil}}))
"#,
            10 + i % 90,
            i % 5,
            i,
            i * 7,
            i % 9,
            i * 3,
            i % 1000
        ));
        i += 1;
    }
    out
}
