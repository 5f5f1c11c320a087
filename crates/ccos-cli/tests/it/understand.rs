//! Plans are right or refused (#15): each test is a goal a new user typed
//! that once got a wrong answer with exit 0, a crash, or a refusal
//! although a capability fits. They run the real binary over the
//! built-ins, the reference MCP servers and an imported OpenAPI document.

use std::path::{Path, PathBuf};

use ccos_testkit::http::{LoopbackServer, Reply};
use ccos_testkit::mcp::TestServers;
use serde_json::{Value, json};

use crate::support::{ccos, text, write};

/// A home whose file built-ins are confined to `<home>/work`, with the
/// fixtures the goals name, and (optionally) loopback HTTP allowed.
fn home(allow_loopback: bool) -> tempfile::TempDir {
    let home = tempfile::tempdir().unwrap();
    let work = home.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    let mut config = format!("[files]\nroots = [{:?}]\n", work.display().to_string());
    if allow_loopback {
        write(
            home.path(),
            "policy.toml",
            "[effects]\nallow = [\"pure\", \"read\", \"user\", \"write\", \"network\"]\n\
             require_approval = [\"write\"]\n[http]\nallow_hosts = [\"127.0.0.1\"]\n",
        );
        config = format!("policy = \"policy.toml\"\n{config}");
    }
    write(home.path(), "config.toml", &config);
    write(&work, "lines.txt", "alpha beta\ngamma\n");
    write(&work, "data.json", r#"{"a": 1, "b": [2, 3]}"#);
    write(&work, "README.md", "# Title\nsome words here\n");
    home
}

/// `ccos run --json GOAL` in `<home>/work`: (exit code, value, stderr).
fn run(home: &Path, goal: &str, extra: &[&str]) -> (Option<i32>, Value, String) {
    let mut args = vec!["run", "--json", goal];
    args.extend_from_slice(extra);
    let out = crate::support::cmd(home, &args)
        .current_dir(home.join("work"))
        .output();
    let json = serde_json::from_slice::<Value>(&out.stdout).unwrap_or(Value::Null);
    // A failed run says why in its JSON's `error`: kept with stderr.
    let err = match json["error"].as_str() {
        Some(e) => format!("{e}\n{}", text(&out.stderr)),
        None => text(&out.stderr),
    };
    (out.status.code(), json["value"].clone(), err)
}

/// Asserts `goal` runs (exit 0) to `want`.
fn right(home: &Path, goal: &str, extra: &[&str], want: Value) {
    let (code, value, err) = run(home, goal, extra);
    assert_eq!(code, Some(0), "{goal}: {err}");
    assert_eq!(value, want, "{goal}: {err}");
}

/// Asserts `goal` ends in requires-agent (exit 4), naming `names`.
fn refused(home: &Path, goal: &str, names: &str) {
    let (code, value, err) = run(home, goal, &[]);
    assert_eq!(code, Some(4), "{goal} gave {value}: {err}");
    assert!(err.contains(names), "{goal}: {err}");
}

fn chain(home: &Path) -> String {
    text(&ccos(home, &["chain", "show", "--json", "--full"]).stdout)
}

fn add_everything(home: &Path, s: &TestServers) {
    let js = s.everything_js().display().to_string();
    let out = ccos(
        home,
        &["mcp", "add", "everything", "--", "node", &js, "stdio"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = ccos(home, &["mcp", "discover", "everything"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn the_operation_the_goal_names_beats_parameter_names() {
    let Some(s) = TestServers::find() else { return };
    let home = home(false);
    add_everything(home.path(), &s);
    // `get-sum {a, b}` fits "divide 10 by 4" by parameter names only: it
    // once won and printed 14.
    right(home.path(), "divide 10 by 4", &[], json!(2.5));
    right(home.path(), "subtract 7 from 20", &[], json!(13));
    right(home.path(), "what is 12 times 7", &[], json!(84));
    // No call reached get-sum.
    let entries: Vec<Value> = serde_json::from_str(&chain(home.path())).unwrap();
    let called: Vec<&str> = entries
        .iter()
        .filter(|e| e["kind"] == "capability_call")
        .filter_map(|e| e["payload"]["capability"].as_str())
        .collect();
    assert_eq!(called, ["ccos.math.div", "ccos.math.sub", "ccos.math.mul"]);
    // Where the server's tool is the better name fit, it still serves.
    right(
        home.path(),
        "get the sum of 4 and 5",
        &[],
        json!("The sum of 4 and 5 is 9."),
    );
}

#[test]
fn the_goal_sentence_is_never_the_data() {
    let home = home(false);
    right(
        home.path(),
        "convert lines.txt to upper case",
        &[],
        json!("ALPHA BETA\nGAMMA\n"),
    );
    right(
        home.path(),
        "for each line in lines.txt count the words",
        &[],
        json!([2, 1]),
    );
    right(
        home.path(),
        "count the words in each line of lines.txt",
        &[],
        json!([2, 1]),
    );
    right(
        home.path(),
        "parse the JSON in data.json",
        &[],
        json!({"a": 1, "b": [2, 3]}),
    );
    right(
        home.path(),
        "what's in README.md?",
        &[],
        json!("# Title\nsome words here\n"),
    );
}

#[test]
fn every_clause_is_served_or_the_goal_is_refused() {
    let home = home(false);
    right(
        home.path(),
        "ask me for a number and double it",
        &["--answer", "21"],
        json!(42),
    );
    right(
        home.path(),
        "count the words in README.md; count the lines in README.md",
        &[],
        json!([5, 2]),
    );
    // A clause nothing serves is named; the rest is not run alone.
    refused(
        home.path(),
        "count the words in README.md and book a flight to Paris",
        "book a flight",
    );
}

#[test]
fn out_of_range_literals_are_a_usage_error_with_a_column() {
    let home = home(false);
    let (code, _, err) = run(home.path(), "add 99999999999999999999 and 1", &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("column 5"), "{err}");
    assert!(!err.contains("planner bug"), "{err}");
    // A decimal with more digits than a float keeps is another number.
    let (code, _, err) = run(home.path(), "what is 31.0000000000000001 plus 1", &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("more digits"), "{err}");
}

#[test]
fn ordinary_phrasings_over_the_built_ins() {
    let home = home(false);
    let h = home.path();
    right(h, "echo hello", &[], json!("hello"));
    right(h, "(2+3)*4", &[], json!(20));
    right(h, "sum of 1.5 and 2.25", &[], json!(3.75));
    right(h, "add 2 and 3 and 4", &[], json!(9));
    right(h, "increase 250 by 10 percent", &[], json!(275));
    right(h, r#"split "a,b,c" on commas"#, &[], json!(["a", "b", "c"]));
    right(h, "sort the numbers 3, 1, 2", &[], json!([1, 2, 3]));
    // "and 4 ..." has no verb: it continues the list, and the order words
    // set :descending.
    right(
        h,
        "sort 10, 2, 33 and 4 from largest to smallest",
        &[],
        json!([33, 10, 4, 2]),
    );
    // Many "and"s: planned in linear time (cutting at each "and" once
    // took exponential time, 9 minutes for a long goal).
    let long = format!("add 2 and 3 {}", "and add 1 and 1 ".repeat(40));
    let (code, value, err) = run(h, long.trim(), &[]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(value.as_array().map(Vec::len), Some(41), "{value}");
    // A goal typed inside quotes is the goal.
    right(h, "\"what is 12 times 7\"", &[], json!(84));
    // A count of some of the items is no count of all of them (new-user
    // trial: "greater than 4" was dropped and 4 printed).
    refused(
        h,
        "how many numbers greater than 4 are in 5, 2, 9, 1",
        "how many numbers greater than 4",
    );
    refused(
        h,
        "how many words end with s in 'cats dog hats'",
        "end with",
    );
    // Quoted JSON is a value to format, and "pretty" is the switch.
    right(
        h,
        "pretty-print the JSON '{\"a\":1}'",
        &[],
        json!("{\n  \"a\": 1\n}"),
    );
    // A second question is its own part, contracted or not.
    right(
        h,
        "what is 2 plus 3 and what's 4 times 5?",
        &[],
        json!([5, 20]),
    );
    right(h, "wait 5 milliseconds", &[], json!(5));
    let (code, value, err) = run(h, r#"write "hello" to out.txt"#, &["--yes"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(value["bytes"], 5, "{err}");
    assert_eq!(
        std::fs::read_to_string(h.join("work/out.txt")).unwrap(),
        "hello"
    );
    // Nothing fits: refused, never a guess.
    refused(h, "book a flight to Paris", "book a flight to Paris");
}

#[test]
fn fetching_a_url_from_an_allowed_host_in_several_phrasings() {
    let home = home(true);
    let server = LoopbackServer::start(|_| Reply::json(200, &json!({"ok": true, "n": 3})));
    let url = server.url("/status.json");
    for goal in [
        format!("get {url}"),
        format!("fetch {url}"),
        format!("download {url}"),
        format!("grab {url}"),
        format!("what does {url} return?"),
    ] {
        let (code, value, err) = run(home.path(), &goal, &["--yes"]);
        assert_eq!(code, Some(0), "{goal}: {err}");
        assert_eq!(value["body"], json!({"ok": true, "n": 3}), "{goal}: {err}");
    }
    assert_eq!(server.requests().len(), 5);
}

/// The TMDB document of the bench data (required under CI).
fn tmdb() -> Option<PathBuf> {
    let p = ccos_testkit::bench_dir()?.join("restbench_tmdb/raw_tmdb_openapi.json");
    ccos_testkit::required(&p.display().to_string(), p.exists().then_some(p.clone()))
}

#[test]
fn imported_operations_do_not_drown_the_built_ins_or_drop_operands() {
    let Some(doc) = tmdb() else { return };
    let home = home(false);
    let out = ccos(
        home.path(),
        &[
            "caps",
            "import-openapi",
            doc.to_str().unwrap(),
            "--prefix",
            "tmdb",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    right(home.path(), "add 2 and 3", &[], json!(5));
    right(home.path(), "multiply 6 by 7", &[], json!(42));
    // A plan never goes ahead without a value the goal states.
    let out = ccos(home.path(), &["plan", "--json", "add 2 and 3"]);
    let j: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(!j.to_string().contains("dropped"), "{j}");
}

#[test]
fn conversation_questions_and_stray_words_are_refused_not_guessed() {
    let home = home(false);
    let h = home.path();
    // Once: "what's your name?" listed the directory; "delete README.md"
    // read it (a description that says "removed" matched "delete").
    refused(h, "what's your name?", "what's your name?");
    refused(h, "how are you today?", "how are you today?");
    refused(h, "delete README.md", "delete README.md");
    assert!(h.join("work/README.md").exists());
}

#[test]
fn counting_and_choosing_follow_the_question() {
    let home = home(true);
    let h = home.path();
    right(
        h,
        "ask me which file to read and count its lines",
        &["--answer", "lines.txt"],
        json!(2),
    );
    right(h, "how many lines does lines.txt have?", &[], json!(2));
    let server = LoopbackServer::start(|_| Reply::text(200, "one two three\n"));
    let url = server.url("/words.txt");
    // The HTTP response's body feeds the count (not the response map).
    right(
        h,
        &format!("fetch {url} and count its words"),
        &["--yes"],
        json!(3),
    );
}

/// Percentages read as a calculator reads them, and a percentage is never
/// taken for a plain number ("add 10% to 50" once printed 60, "200 - 10%"
/// 190).
#[test]
fn percentages_are_percentages() {
    let home = home(false);
    for (goal, want) in [
        ("what is 200 - 10%", json!(180)),
        ("add 10% to 50", json!(55)),
        ("20% of 50 plus 1", json!(11)),
        ("what is 15% of 80", json!(12)),
    ] {
        right(home.path(), goal, &[], want);
    }
}

/// A word that changes what is computed (unique, sorted, ignoring, title
/// case, pretty) must be done by the plan; otherwise the goal is refused,
/// naming the word. Each of these once answered something else with exit 0.
#[test]
fn qualifiers_the_plan_does_not_do_are_refused() {
    let home = home(false);
    write(
        &home.path().join("work"),
        "story.txt",
        "the cat and the dog\nthe end\n",
    );
    write(
        &home.path().join("work"),
        "person.json",
        r#"{"name":"ann"}"#,
    );
    for (goal, names) in [
        ("count the empty lines in lines.txt", "\"empty\""),
        (
            "count the words in story.txt ignoring the word the",
            "\"ignoring\"",
        ),
        // The file's name is not the value to format.
        ("format person.json as pretty JSON", "person.json"),
    ] {
        refused(home.path(), goal, names);
    }
    // `--explain` says why a candidate was skipped.
    let out = crate::support::cmd(
        home.path(),
        &["plan", "count the empty lines in lines.txt", "--explain"],
    )
    .current_dir(home.path().join("work"))
    .output();
    assert_eq!(out.status.code(), Some(4));
    assert!(
        text(&out.stdout).contains(
            ";;   skipped ccos.text.count_lines: the goal says \"empty\", which ccos.text.count_lines does not account for"
        ),
        "{}",
        text(&out.stdout)
    );
    // The qualifier done, then the count: the unique lines found first.
    write(&home.path().join("work"), "dup.txt", "a\nb\na\n");
    right(
        home.path(),
        "count the unique lines in dup.txt",
        &[],
        json!(2),
    );
    right(
        home.path(),
        "count the distinct words in story.txt",
        &[],
        json!(5),
    );
    // What the plan does do still runs.
    right(
        home.path(),
        "sort the numbers 5, 3, 9, 1 descending",
        &[],
        json!([9, 5, 3, 1]),
    );
    right(
        home.path(),
        "sort 10, 2, 33 and 4 from largest to smallest",
        &[],
        json!([33, 10, 4, 2]),
    );
    right(home.path(), "count the words in story.txt", &[], json!(7));
    // A sort takes a list: the file's words, found first (refused before
    // words were read from a file).
    right(
        home.path(),
        "sort the words of story.txt",
        &[],
        json!(["and", "cat", "dog", "end", "the", "the", "the"]),
    );
}

/// A file is read as what the goal asks of it: its lines where a list is
/// wanted; never listed as if it were a directory ("sort the lines of
/// words.txt" once called `ccos.file.list` on the file), and a URL is not
/// the page ("count the words at URL" once counted the address).
#[test]
fn files_and_urls_are_read_as_the_goal_asks() {
    let home = home(false);
    write(&home.path().join("work"), "words.txt", "pear\napple\nfig\n");
    right(
        home.path(),
        "sort the lines of words.txt",
        &[],
        json!(["apple", "fig", "pear"]),
    );
    right(
        home.path(),
        "take the first 2 lines of words.txt",
        &[],
        json!(["pear", "apple"]),
    );
    refused(
        home.path(),
        "count the words at https://example.com/page",
        "url \"https://example.com/page\"",
    );
}

/// Questions are asked one after the other in plan order, so answers
/// given in order meet their questions (parallel asks once took answers
/// in completion order); an answer may name the value asked for
/// (`NAME=VALUE`, the parameter's name).
#[test]
fn answers_meet_their_questions() {
    let home = home(false);
    for _ in 0..3 {
        right(
            home.path(),
            "ask me for a city and ask me for a country",
            &["--answer", "Paris", "--answer", "France"],
            json!(["Paris", "France"]),
        );
    }
    right(
        home.path(),
        "find all the numbers in \"order 66 shipped 3 items\"",
        &["--answer", "pattern=[0-9]+"],
        json!(["66", "3"]),
    );
    // A count of the operands is not an operand: nothing is guessed.
    refused(home.path(), "divide two numbers", "divide two numbers");
    // Counting answers only a question for a number: "find all the
    // words" once printed how many there were.
    refused(
        home.path(),
        "find all the words in lines.txt",
        "asks for no count",
    );
    right(home.path(), "count the words in lines.txt", &[], json!(3));
    right(
        home.path(),
        "how many words are in lines.txt",
        &[],
        json!(3),
    );
    // What is counted is what the capability counts: characters are not
    // words (new-user trial: "in the word \"cat\"" answered 1).
    refused(
        home.path(),
        "how many characters are in the word \"cat\"",
        "requires-agent",
    );
    right(
        home.path(),
        "how many characters are in \"cat\"",
        &[],
        json!(3),
    );
    // "10,20,30" is three numbers; "1,000" one.
    right(
        home.path(),
        "find all the numbers in \"scores: 10,20,30 of 1,000\"",
        &[],
        json!(["10", "20", "30", "1,000"]),
    );
    // Each part's answer is kept: "…, then wait" once answered 1000 (the
    // milliseconds slept), the product lost.
    right(
        home.path(),
        "what is 6 times 7, then wait 1 millisecond",
        &[],
        json!([42, 1]),
    );
    // A folder named by a word and a folder noun is that folder, never
    // the current one; a bare word without one is refused.
    write(&home.path().join("work/docs"), "a.md", "# A\n");
    right(
        home.path(),
        "list the docs folder",
        &[],
        json!([{"name": "a.md", "size": 4, "type": "file"}]),
    );
    refused(home.path(), "list the directory docs", "give its path");
    // "it" is the earlier result: a step that has no place for it does
    // something else (the clock once answered "… for it"; then, the
    // clock refused, sleeping took the text as milliseconds).
    refused(
        home.path(),
        "read lines.txt and show the current time for it",
        "no parameter left to take it",
    );
}

/// Places are time zones when the IANA database names a zone after them
/// ("Tokyo" → `Asia/Tokyo`); "New York" does not ask to create anything
/// (a value's words are not the goal's operation); a place that is no
/// zone is refused, not guessed.
#[test]
fn places_are_time_zones() {
    let Some(s) = TestServers::find() else { return };
    let home = home(false);
    let bin = s.venv_bin("mcp-server-time").display().to_string();
    let out = ccos(
        home.path(),
        &["mcp", "add", "time", "--", &bin, "--local-timezone", "UTC"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = ccos(home.path(), &["mcp", "discover", "time"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    for (goal, zone) in [
        ("what time is it in Tokyo", "Asia/Tokyo"),
        ("current time in New York", "America/New_York"),
    ] {
        let (code, value, err) = run(home.path(), goal, &[]);
        assert_eq!(code, Some(0), "{goal}: {err}");
        assert_eq!(value["timezone"], json!(zone), "{goal}: {value}");
    }
    let (code, value, err) = run(home.path(), "what time is it in Atlantis?", &[]);
    assert_ne!(code, Some(0), "Atlantis gave {value}: {err}");
    // A variation asks the previous question again with its value.
    let goal = "what time is it in Tokyo? what about Paris?";
    let (code, value, err) = run(home.path(), goal, &[]);
    assert_eq!(code, Some(0), "{goal}: {err}");
    assert_eq!(value[0]["timezone"], json!("Asia/Tokyo"), "{goal}: {value}");
    assert_eq!(
        value[1]["timezone"],
        json!("Europe/Paris"),
        "{goal}: {value}"
    );
}

/// Goals a new user typed that once answered something else with exit 0:
/// every word that says what to do must be accounted for by the plan (the
/// capability's name, description or parameters), negations are refused,
/// an order "by" a key needs the key, squaring binds to its factor, and a
/// symbol after "on" is the separator.
#[test]
fn every_word_of_the_request_is_accounted_for() {
    let home = home(false);
    let work = home.path().join("work");
    write(
        &work,
        "b.txt",
        "  hello world  \nHello Again\n\nlast line here\n",
    );
    write(&work, "people.csv", "name,age\nBob,25\n");
    for (goal, names) in [
        ("count the capitalized words in b.txt", "\"capitalized"),
        ("count only the words in b.txt", "\"only\""),
        ("count the empty lines in b.txt", "\"empty\""),
        ("list the json files", "\"json files\""),
        ("read the header of people.csv", "\"header\""),
        ("read the names in people.csv", "\"names\""),
        ("don't uppercase 'abc'", "\"don't\""),
        ("sort 3, 1, 2 but not descending", "\"not\""),
        ("list the files sorted by size", "field \"size\""),
    ] {
        refused(home.path(), goal, names);
    }
    right(home.path(), "what is 2 times 3 squared", &[], json!(18));
    right(
        home.path(),
        "split 'a;b;c' on ;",
        &[],
        json!(["a", "b", "c"]),
    );
    right(
        home.path(),
        "read the file named b.txt and count its lines",
        &[],
        json!(4),
    );
}

/// Restrictions written after what they restrict ("the lines *that are
/// empty*", "*containing* x", "*for each* stanza", "*as* a whole number",
/// "with *no* blanks", "*in uppercase*", "three *times*") must be done by
/// the plan; a unary word binds to the term after it ("half of 10 plus
/// 4" is 9). Each of these once answered something else with exit 0.
#[test]
fn restrictions_after_the_noun_are_done_or_refused() {
    let home = home(false);
    let work = home.path().join("work");
    write(&work, "notes.txt", "a\n\nb\nalpha\n\n");
    write(
        &work,
        "poem.txt",
        "roses are red\nviolets are blue\n\nsugar is sweet\n",
    );
    for (goal, names) in [
        ("count the lines in notes.txt that are empty", "that"),
        ("count the lines in poem.txt containing are", "containing"),
        ("count the lines in poem.txt for each stanza", "each"),
        ("count the lines in notes.txt with no blanks", "\"no\""),
        ("what is 7 divided by 2 as a whole number", "as"),
        ("echo 'hello' in uppercase", "\"uppercase\""),
        ("repeat 'abc' three times", "\"times\""),
        ("list the entries in . that are directories", "that"),
    ] {
        refused(home.path(), goal, names);
    }
    right(home.path(), "half of 10 plus 4", &[], json!(9));
    right(
        home.path(),
        "what is 2 to the power of 10",
        &[],
        json!(1024),
    );
    right(home.path(), "what is 3 cubed", &[], json!(27));
    right(home.path(), "the average of 3, 5 and 10", &[], json!(6));
    right(home.path(), "what is 8 more than 12", &[], json!(20));
    right(
        home.path(),
        "how many items are in [1, 2, 3, 4]",
        &[],
        json!(4),
    );
    right(
        home.path(),
        "how many numbers are in 5, 6, 7",
        &[],
        json!(3),
    );
    right(home.path(), "what is twice 3 plus 1", &[], json!(7));
    right(home.path(), "count the lines in poem.txt", &[], json!(4));
}

/// Several coordinated values for one parameter: one call per value, in
/// the goal's order, the result a vector; a city and its state, or a
/// chain through another operand, is not such a list.
#[test]
fn coordinated_values_make_one_call_each() {
    let home = home(false);
    right(
        home.path(),
        "count the words in 'a b' and 'c d e'",
        &[],
        json!([2, 3]),
    );
    right(
        home.path(),
        "uppercase 'abc', 'def' and 'ghi'",
        &[],
        json!(["ABC", "DEF", "GHI"]),
    );
    let out = ccos(
        home.path(),
        &["plan", "count the words in 'a b' and 'c d e'"],
    );
    let plan = text(&out.stdout);
    assert_eq!(plan.matches("ccos.text.count_words").count(), 2, "{plan}");
    // "add 2 and 3 and 4" stays one sum, not two additions.
    right(home.path(), "add 2 and 3 and 4", &[], json!(9));
}

/// Groups of values stated one after another ("$30.45 in Chicago,
/// Illinois, $52.33 in Sacramento, California") make one call per group,
/// each with its own values, over an imported operation on loopback; a
/// total over the groups, or groups that do not repeat the first one's
/// shape, stay refused.
#[test]
fn groups_of_values_make_one_call_per_group() {
    let server = LoopbackServer::start(|req| {
        let amount: f64 = req
            .query_param("purchase_amount")
            .and_then(|a| a.parse().ok())
            .unwrap_or(f64::NAN);
        let rate = match (req.query_param("city"), req.query_param("state")) {
            (Some("Chicago"), Some("Illinois")) => 0.1025,
            (Some("Sacramento"), Some("California")) => 0.0875,
            (Some("Portland"), Some("Oregon")) => 0.0,
            _ => return Reply::json(400, &json!({"error": "unknown place"})),
        };
        let tax = (amount * rate * 100.0).round() / 100.0;
        Reply::json(200, &json!({"tax": tax}))
    });
    let param = |name: &str, ty: &str, what: &str| json!({"name": name, "in": "query", "required": true, "description": what, "schema": {"type": ty}});
    let doc = json!({
        "openapi": "3.0.3",
        "info": {"title": "tax", "version": "1"},
        "servers": [{"url": server.url("")}],
        "paths": {"/sales-tax": {"get": {
            "operationId": "calculate_sales_tax",
            "summary": "Calculate the sales tax of a purchase in a city",
            "parameters": [
                param("purchase_amount", "number", "The amount of the purchase in dollars"),
                param("city", "string", "The city of the purchase"),
                param("state", "string", "The state of the purchase"),
            ],
            "responses": {"200": {"description": "ok", "content": {"application/json": {"schema":
                {"type": "object", "properties": {"tax": {"type": "number"}}}}}}}
        }}}
    });
    let home = home(true);
    let h = home.path();
    import_inline(h, "tax", &doc);
    right(
        h,
        "calculate the sales tax on a purchase amount of $30.45 in Chicago, Illinois, $52.33 in Sacramento, California and $11.23 in Portland, Oregon",
        &["--yes"],
        json!([{"tax": 3.12}, {"tax": 4.58}, {"tax": 0.0}]),
    );
    refused(
        h,
        "what is the total sales tax on $30.45 in Chicago, Illinois and $52.33 in Sacramento, California?",
        "would drop",
    );
    refused(
        h,
        "calculate the sales tax on $30.45 in Chicago, Illinois, unless it is a refund of $52.33 in Sacramento, California",
        "requires-agent",
    );
    // Attack trial: a value changed or bounded before use is not the one
    // to send; groups a clause split copied into two clauses are not
    // guessed apart.
    for (goal, names) in [
        (
            "calculate the sales tax on a purchase amount of $30.45 in Chicago, Illinois and $52.33 in Sacramento, California, both doubled",
            "\"doubled\"",
        ),
        (
            "calculate the sales tax on half of $30.45 in Chicago, Illinois",
            "\"half\"",
        ),
        (
            "calculate the sales tax on at least $30.45 in Chicago, Illinois and $52.33 in Sacramento, California",
            "\"at least\"",
        ),
        (
            "calculate the sales tax on a purchase amount of $30.45 in Chicago, Illinois, $52.33 in Sacramento, California, $11.23 in Portland, Oregon and in Seattle, Washington",
            "groups of values in a goal of several clauses",
        ),
    ] {
        refused(h, goal, names);
    }
}

/// Ordinary requests a new user typed that were refused although the
/// built-ins serve them: courtesy words, "how big", extremes, reversing,
/// removing duplicates.
#[test]
fn ordinary_requests_over_the_built_ins_are_served() {
    let home = home(false);
    right(
        home.path(),
        "could you please count how many words are in README.md?",
        &[],
        json!(5),
    );
    right(
        home.path(),
        "what is the largest of 4, 19, 7 and 12?",
        &[],
        json!(19),
    );
    right(
        home.path(),
        "what is the smallest of 3, 9, 2",
        &[],
        json!(2),
    );
    right(
        home.path(),
        "reverse the string \"stressed\"",
        &[],
        json!("desserts"),
    );
    right(
        home.path(),
        "remove duplicates from 3, 1, 3, 2, 1",
        &[],
        json!([3, 1, 2]),
    );
    // The question names the stat's size field: the answer is the size.
    let (code, value, err) = run(home.path(), "how big is README.md?", &[]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(value, json!(24), "{value}");
    right(home.path(), "does missing.txt exist?", &[], json!(false));
    // A field whose type may be null still answers ("modified").
    let (code, value, err) = run(home.path(), "when was README.md modified?", &[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        value.as_str().is_some_and(|v| v.starts_with("20")),
        "{value}"
    );
}

/// A country with one time zone names it ("India" is Asia/Kolkata, "right
/// now" is now); places listed with it are not dropped; a name never
/// fills a list of names to delete.
#[test]
fn countries_name_their_zone_and_listed_places_are_not_dropped() {
    let Some(s) = TestServers::find() else { return };
    let home = home(false);
    let time = s.venv_bin("mcp-server-time").display().to_string();
    let out = ccos(
        home.path(),
        &["mcp", "add", "time", "--", &time, "--local-timezone", "UTC"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = ccos(home.path(), &["mcp", "discover", "time"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let (code, value, err) = run(home.path(), "what's the time in India right now?", &[]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(value["timezone"], json!("Asia/Kolkata"), "{value}");
    assert!(
        value["datetime"]
            .as_str()
            .is_some_and(|d| d.ends_with("+05:30")),
        "{value}"
    );
    // A place listed with a served one is not dropped, nor a place's
    // state: refused, not answered for the first place only.
    for goal in [
        "what time is it in Tokyo and Brazil",
        "what time is it in Paris, Texas",
    ] {
        let (code, value, err) = run(home.path(), goal, &[]);
        assert_eq!(code, Some(4), "{goal} gave {value}: {err}");
    }
    // A country whose database comment names its main zone is that zone,
    // one call per place.
    let (code, value, err) = run(home.path(), "current time in India and Germany", &[]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(value[0]["timezone"], json!("Asia/Kolkata"), "{value}");
    assert_eq!(value[1]["timezone"], json!("Europe/Berlin"), "{value}");
    // A country with several zones and no main one names none: refused,
    // not guessed.
    let (code, value, err) = run(home.path(), "what time is it in the United States?", &[]);
    assert_ne!(code, Some(0), "{value}: {err}");

    let memory = s.node_bin("mcp-server-memory").display().to_string();
    let graph = home.path().join("memory.jsonl");
    let env = format!("MEMORY_FILE_PATH={}", graph.display());
    let out = ccos(
        home.path(),
        &["mcp", "add", "memory", "--env", &env, "--", &memory],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = ccos(home.path(), &["mcp", "discover", "memory"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // A name fills a list of names to delete only when it is the whole
    // object: "forget what Alice likes" would delete all of Alice (trial
    // 3). Refused.
    let out = ccos(home.path(), &["plan", "forget everything about Dana"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains(r#"(call :mcp.memory.delete_entities {:entityNames ["Dana"]})"#),
        "{}",
        text(&out.stdout)
    );
    for goal in ["forget what Alice likes", "forget the dog of Dana"] {
        let out = ccos(home.path(), &["plan", goal]);
        assert_eq!(out.status.code(), Some(4), "{goal}: {}", text(&out.stdout));
    }
    // One fact at a time: a second sentence was stored as part of the
    // first fact (attack trial); a variation never repeats a write.
    for goal in [
        "Remember that Alice likes tea. Bob is 40.",
        "Alice works at Acme. Bob works at Initech. Remember it.",
        "remember that Alice likes tea; what about Bob?",
    ] {
        let out = ccos(home.path(), &["plan", goal]);
        assert_eq!(out.status.code(), Some(4), "{goal}: {}", text(&out.stdout));
    }
    // Files sought by name are not the memory's entities (new-user
    // trial: the memory search answered "search for files named guide").
    let out = ccos(home.path(), &["plan", "search for files named guide"]);
    assert_eq!(out.status.code(), Some(4), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("the goal seeks files, which mcp.memory.search_nodes"),
        "{}",
        text(&out.stdout)
    );
    // A search queries what it is for, not the place searched.
    let out = ccos(home.path(), &["plan", "search my knowledge graph for tea"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let plan = text(&out.stdout);
    assert!(
        plan.contains(r#"(call :mcp.memory.search_nodes {:query "tea"})"#),
        "{plan}"
    );
    // A fact to remember is kept as stated, on each entity it is about,
    // whether the entity existed or not (issue #15: "remember that Alice
    // likes tea" was refused).
    let (code, value, err) = run(home.path(), "remember that Alice likes tea", &["--yes"]);
    assert_eq!(code, Some(0), "{value}: {err}");
    let (code, value, err) = run(
        home.path(),
        "Alice and Dana are sisters, please remember that.",
        &["--yes"],
    );
    assert_eq!(code, Some(0), "{value}: {err}");
    let (code, value, err) = run(
        home.path(),
        "note that Alice's favourite colour is green, then tell me what you know about Alice",
        &["--yes"],
    );
    assert_eq!(code, Some(0), "{value}: {err}");
    let found = value.to_string();
    for fact in [
        "Alice likes tea",
        "Alice and Dana are sisters",
        "Alice's favourite colour is green",
    ] {
        assert!(found.contains(fact), "{fact}: {found}");
    }
    let graph = std::fs::read_to_string(&graph).unwrap_or_default();
    let dana = graph
        .lines()
        .find(|l| l.contains(r#""name":"Dana""#))
        .unwrap_or_default();
    assert!(dana.contains("Alice and Dana are sisters"), "{graph}");
    // A statement followed by the request is one fact; the speaker is
    // the memory's default user.
    for goal in [
        "Ruth is a nurse. Remember that.",
        "could you remember that I like green tea?",
    ] {
        let (code, value, err) = run(home.path(), goal, &["--yes"]);
        assert_eq!(code, Some(0), "{goal}: {value}: {err}");
    }
    let kept = std::fs::read_to_string(home.path().join("memory.jsonl")).unwrap_or_default();
    assert!(kept.contains("Ruth is a nurse"), "{kept}");
    assert!(
        kept.lines()
            .any(|l| l.contains(r#""name":"default_user""#) && l.contains("I like green tea")),
        "{kept}"
    );
    // What the fact is about must be said, not guessed (attack trial:
    // "Sadly Bob" and "you" became entities, a second request and a
    // question were stored as facts).
    refused(
        home.path(),
        "remember that she likes tea",
        "does not say whom or what it refers to",
    );
    refused(
        home.path(),
        "remember that Sadly Bob lost his job",
        "it opens with \"Sadly\"",
    );
    // Two requests are two steps, not one fact.
    let out = ccos(
        home.path(),
        &["plan", "remember that Alice likes tea and forget Bob"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let plan = text(&out.stdout);
    assert!(
        plan.contains(r#"{:contents ["Alice likes tea"] :entityName "Alice"}"#),
        "{plan}"
    );
    assert!(plan.contains(r#"{:entityNames ["Bob"]}"#), "{plan}");
    refused(
        home.path(),
        "remember that Alice likes tea?",
        "is a question",
    );
    refused(
        home.path(),
        "remember that Alice likes tea and call Bob",
        "goes on with another request",
    );
    // A file's text is no query for the memory's search (new-user trial:
    // it searched the graph for the whole file and found nothing).
    refused(
        home.path(),
        "read notes.txt and search it for milk",
        "searches by a query",
    );
    refused(
        home.path(),
        "read notes.txt and find lines starting with Q",
        "the goal seeks lines",
    );
    refused(
        home.path(),
        "count the lines in notes.txt and remember that",
        "\"remember that\": no capability fits",
    );
    // A folder is no entity of the memory.
    let (code, _, _) = run(home.path(), "create a folder named Projects", &["--yes"]);
    assert_ne!(code, Some(0));
    // A thing another capability makes is not the memory's ("create a
    // branch called Main" is no entity of kind "branch" when git is
    // there); a new person with no other maker is.
    let (code, _, err) = run(
        home.path(),
        "add a new person called Erin who is a pilot",
        &["--yes"],
    );
    assert_eq!(code, Some(0), "{err}");
    let graph = std::fs::read_to_string(home.path().join("memory.jsonl")).unwrap_or_default();
    assert!(graph.contains(r#""entityType":"person""#), "{graph}");
    assert!(graph.contains("Erin is a pilot"), "{graph}");
}

/// Coordinated values give one call each only when nothing else is a
/// guess: another operand of the same kind, a write, "total", "either",
/// or a list of files the question is about (trial 3 found each of these
/// answered wrongly with exit 0).
#[test]
fn one_call_per_value_never_guesses() {
    let home = home(false);
    for goal in [
        "subtract 3 from 10 and 20",
        "divide 10 and 20 by 5",
        "split 'a-b' and 'c-d' on '-'",
        "add 3 dozen and 2",
        "write 'hi' and 'bye' to x.txt",
        "count the total words in 'a b' and 'c d e'",
        "uppercase either 'foo' or 'bar'",
        "how many lines are in lines.txt and README.md",
        "how many of 1, 2, 3, 4 are even",
    ] {
        refused(home.path(), goal, "requires-agent");
    }
    assert!(!home.path().join("work/x.txt").exists());
    right(home.path(), "how many items are in 1, 2, 3", &[], json!(3));
}

/// Numbers are read as written: thousands separators group, a decimal
/// comma or a hexadecimal literal is not guessed at; texts that spell
/// numbers compare as numbers; a regular expression and the text it
/// searches are not swapped.
#[test]
fn numbers_and_patterns_are_read_as_written() {
    let home = home(false);
    right(home.path(), "add 1,000 and 1", &[], json!(1001));
    right(home.path(), "add 2,500 and 1,250", &[], json!(3750));
    refused(home.path(), "add 0x10 and 1", "add 0x10 and 1");
    refused(home.path(), "add 12,34 and 1", "add 12,34 and 1");
    // Digits of other scripts are not read as numbers (they once passed
    // as one and failed preflight: "planner bug").
    refused(home.path(), "add ٣ and 4", "add ٣ and 4");
    refused(home.path(), "add ３ and 4", "add ３ and 4");
    right(
        home.path(),
        "what is the largest of '10', '9', '100'",
        &[],
        json!("100"),
    );
    right(
        home.path(),
        "find the regex '[0-9]+' in 'a1b22'",
        &[],
        json!(["1", "22"]),
    );
    // Trial 4: each of these once answered wrongly with exit 0.
    right(
        home.path(),
        "add 1,000 and 1 then multiply by 2",
        &[],
        json!(2002),
    );
    right(
        home.path(),
        "what is the largest of '1,000' and '999'",
        &[],
        json!("1,000"),
    );
    // Metacharacters the goal does not call a regex: not searched as one.
    refused(home.path(), "find '1+1' in '1+1=2'", "regular expression");
    refused(
        home.path(),
        "find 'c++' in 'I like c++'",
        "regular expression",
    );
    // A flag is a place, not decoration.
    refused(home.path(), "what time is it in 🇩🇪", "🇩🇪");
    // Texts with digits that are not all numbers: no order is sure.
    for goal in [
        "what is the largest of '10', '9' and ''",
        "what is the largest of '$10' and '$9'",
    ] {
        let (code, value, err) = run(home.path(), goal, &[]);
        assert_ne!(code, Some(0), "{goal} gave {value}: {err}");
    }
}

/// Trial 6 (a new user): a clause after "then" that opens with an
/// operator continues the previous result ("then times 3" once slept 3 ms:
/// "times" stems to "time"); a bare number is no duration; `run --json`
/// prints the refusal as JSON too.
#[test]
fn then_continues_the_arithmetic_and_a_bare_number_is_no_duration() {
    let home = home(false);
    for (goal, want) in [
        ("what's 20 divided by 5 then times 3", json!(12)),
        ("add 4 and 6 then times 2", json!(20)),
        ("what is 9 plus 1 then divided by 2", json!(5)),
        ("what is 9 plus 1 then multiply by 3", json!(30)),
        ("add 2 and 3 then subtract 1", json!(4)),
    ] {
        right(home.path(), goal, &[], want);
    }
    refused(home.path(), "wait 3", "needs its unit");
    // "divide 2 into 10": 10 / 2, or 2 cut into 10 parts? Not guessed.
    refused(home.path(), "divide 2 into 10", "divide 2 into 10");
    // "subtract 2" alone: 2 - x or x - 2? Not asked by guessing (with an
    // answer of 10 it once gave -8).
    let (code, value, err) = run(home.path(), "subtract 2 then times 3", &["--answer", "10"]);
    assert_eq!(code, Some(4), "{value}: {err}");
    assert!(err.contains("not which"), "{err}");
    let (code, value, _) = run(home.path(), "what is the meaning of life", &[]);
    assert_eq!(code, Some(4));
    // `run` printed the result as JSON: its `value` is null, its report set.
    assert_eq!(value, Value::Null);
    let out = crate::support::cmd(
        home.path(),
        &["run", "--json", "what is the meaning of life"],
    )
    .current_dir(home.path().join("work"))
    .output();
    let j: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        j["report"]
            .as_str()
            .is_some_and(|r| r.contains("requires-agent")),
        "{j}"
    );
    assert!(j["requires_agent"]["missing"].is_array(), "{j}");
}

#[test]
fn quantities_keep_their_units_and_today_is_now() {
    let home = home(false);
    // Kilometres and miles are not two numbers to add: the sum of 5 and 3
    // would be a wrong answer with exit 0.
    refused(home.path(), "add 5 km and 3 miles", "5 km");
    refused(home.path(), "what is 2 kg plus 3 kg", "kg");
    // "today" asks for what ccos.time.now returns.
    let (code, value, err) = run(home.path(), "what's today's date?", &[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        value
            .as_str()
            .is_some_and(|v| v.len() >= 10 && v.starts_with("20")),
        "{value}"
    );
}

/// A home with OpenAPI document `doc` imported under `prefix` against the
/// loopback fixture server at `base` (a path on it), whose host is
/// allowed.
fn imported_home(
    server: &LoopbackServer,
    doc: &Path,
    base: &str,
    prefix: &str,
) -> tempfile::TempDir {
    let home = home(false);
    let out = ccos(
        home.path(),
        &[
            "caps",
            "import-openapi",
            doc.to_str().unwrap(),
            "--base-url",
            &server.url(base),
            "--prefix",
            prefix,
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    write(
        home.path(),
        "config.toml",
        &format!(
            "[files]\nroots = [{:?}]\n[http]\nallow_hosts = [\"127.0.0.1:{}\"]\n",
            home.path().join("work").display().to_string(),
            server.addr().port()
        ),
    );
    home
}

/// The goal suite's fixture server.
fn fixture_server() -> LoopbackServer {
    ccos_testkit::fixtures::Fixtures::load(&ccos_testkit::repo_root().join("goals/fixtures"))
        .unwrap()
        .serve()
}

#[test]
fn a_question_about_one_field_is_answered_with_that_field() {
    let server = fixture_server();
    let doc = ccos_testkit::repo_root().join("goals/fixtures/github-subset.openapi.json");
    let home = imported_home(&server, &doc, "/github", "github");
    let repo = &fixtures_repo("acme/rocket");
    let yes = ["--yes"];
    right(
        home.path(),
        "how many stars does acme/rocket have?",
        &yes,
        repo["stargazers_count"].clone(),
    );
    right(
        home.path(),
        "how many forks does acme/rocket have?",
        &yes,
        repo["forks_count"].clone(),
    );
    right(
        home.path(),
        "is acme/rocket archived?",
        &yes,
        repo["archived"].clone(),
    );
    // The plan shows the projection, and the trace says why.
    let out = ccos(
        home.path(),
        &["plan", "--explain", "how many stars does acme/rocket have?"],
    );
    let shown = text(&out.stdout) + &text(&out.stderr);
    assert!(shown.contains(":stargazers_count"), "{shown}");
    assert!(shown.contains("the question asks for \"stars\""), "{shown}");
    // "how many forks did … get" once counted the repository's issues.
    right(
        home.path(),
        "how many forks did acme/rocket get?",
        &yes,
        repo["forks_count"].clone(),
    );
    // A total is no answer to a question about this week.
    refused(
        home.path(),
        "how many stars did acme/rocket get this week?",
        "this week",
    );
    // A yes or no that no field answers is not the whole repository.
    let (code, value, err) = run(home.path(), "is acme/rocket licensed?", &yes);
    assert_eq!(code, Some(4), "{value}: {err}");
    // An object field answers as well as a number (once: the whole
    // repository for its license).
    right(
        home.path(),
        "what is the license of acme/rocket?",
        &yes,
        repo["license"].clone(),
    );
    // "the forks" are neither the fork count nor the flag saying it is a
    // fork; "does it have forks?" is not "is it a fork?" (the flag once
    // answered it).
    refused(
        home.path(),
        "show me the forks of acme/rocket",
        "forks_count",
    );
    refused(home.path(), "does acme/rocket have forks?", "forks_count");
    right(
        home.path(),
        "is acme/rocket a fork?",
        &yes,
        repo["fork"].clone(),
    );
    // A restriction by a parameter the plan leaves unset: refused, never
    // every issue (new-user trial).
    refused(
        home.path(),
        "list the open issues with the label bug in acme/rocket",
        "\"bug\"",
    );
    for goal in [
        // The example in `labels`' description ("Example: bug,ui") does
        // not account for "bug"; a label before its word, or after "and".
        "list the bug issues of acme/rocket",
        "list the issues of acme/rocket with the ui label",
        "list the issues of acme/rocket labelled both bug and ui",
        // A verb on what was listed, which listing does not do.
        "list the issues of acme/rocket and close them",
        // One page of a paged list is not the total; "open issues" is not
        // all the issues; "forked" is neither the flag nor the count.
        "how many issues does acme/rocket have",
        "has acme/rocket been forked?",
        "who forked acme/rocket",
    ] {
        refused(home.path(), goal, "requires-agent");
    }
    // A label is no body, a person no filter left out, "two" no chance
    // (second attack trial).
    for goal in [
        "create an issue in acme/rocket titled \"Crash\" labeled bug",
        "create two issues titled \"Crash\" in acme/rocket",
        "create an issue titled \"Crash\" in acme/rocket and label it bug",
        "create an issue titled \"Crash\" in acme/rocket with label \"bug\"",
        "list closed acme/rocket issues by rpatel",
    ] {
        let out = ccos(home.path(), &["plan", goal]);
        assert_eq!(out.status.code(), Some(4), "{goal}: {}", text(&out.stdout));
    }
    // "issue #3" states the number (it once gave the repository); "a
    // star count" names the count by its description.
    let (code, value, err) = run(home.path(), "get issue #3 of acme/rocket", &yes);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(value["number"], json!(3), "{value}");
    right(
        home.path(),
        "what is the star count of acme/rocket",
        &yes,
        repo["stargazers_count"].clone(),
    );
    right(
        home.path(),
        "how many open issues does acme/rocket have",
        &yes,
        repo["open_issues_count"].clone(),
    );
    // "issue 3" is not a label: the list of issues labelled "3" was once
    // the answer to who opened issue 3.
    let (code, value, err) = run(home.path(), "who opened issue 3 of acme/rocket?", &yes);
    assert_ne!(code, Some(0), "{value}: {err}");
    assert!(!err.contains("labels"), "{err}");
}

#[test]
fn choices_named_by_the_goal_are_taken_and_exclusions_refused() {
    let server = fixture_server();
    let doc = ccos_testkit::repo_root().join("goals/fixtures/github-subset.openapi.json");
    let home = imported_home(&server, &doc, "/github", "github");
    let yes = ["--yes"];
    // "closed" is one of `state`'s values: the closed issues, also when
    // the goal is typed in capitals.
    for goal in [
        "show me the closed issues in acme/rocket",
        "LIST THE CLOSED ISSUES IN ACME/ROCKET",
    ] {
        let (code, value, err) = run(home.path(), goal, &yes);
        assert_eq!(code, Some(0), "{goal}: {err}");
        let issues = value
            .as_array()
            .unwrap_or_else(|| panic!("{goal}: {value}"));
        assert!(!issues.is_empty(), "{goal}: {value}");
        assert!(
            issues.iter().all(|i| i["state"] == json!("closed")),
            "{goal}: {value}"
        );
    }
    // What to leave out, a day to restrict to, or a choice of an order
    // the goal does not ask for: refused, never all the issues (attack
    // trial).
    refused(
        home.path(),
        "list the issues in acme/rocket other than the closed ones",
        "other than",
    );
    refused(
        home.path(),
        "list today's closed issues in acme/rocket",
        "today",
    );
    let (code, value, err) = run(
        home.path(),
        "list the issues in acme/rocket with comments",
        &yes,
    );
    assert_eq!(code, Some(4), "{value}: {err}");
}

/// The fixture's record of repository `full_name`.
fn fixtures_repo(full_name: &str) -> Value {
    let text =
        std::fs::read_to_string(ccos_testkit::repo_root().join("goals/fixtures/github.json"))
            .unwrap();
    let j: Value = serde_json::from_str(&text).unwrap();
    find_repo(&j, full_name).unwrap_or_else(|| panic!("{full_name} not in github.json"))
}

fn find_repo(j: &Value, full_name: &str) -> Option<Value> {
    match j {
        Value::Object(o) => {
            if o.get("full_name").and_then(Value::as_str) == Some(full_name)
                && o.contains_key("stargazers_count")
            {
                return Some(j.clone());
            }
            o.values().find_map(|v| find_repo(v, full_name))
        }
        Value::Array(a) => a.iter().find_map(|v| find_repo(v, full_name)),
        _ => None,
    }
}

#[test]
fn a_name_is_looked_up_before_the_capability_that_takes_its_id() {
    let Some(doc) = tmdb() else { return };
    let server = fixture_server();
    let home = imported_home(&server, &doc, "/3", "tmdb");
    // Search the title, keep the result whose title is exactly it (not
    // its sequel "Copper Sky: Ascent"), then the details' runtime.
    right(
        home.path(),
        "what is the runtime of Copper Sky?",
        &["--yes"],
        json!(141),
    );
    let out = ccos(
        home.path(),
        &["plan", "--explain", "what is the runtime of Copper Sky?"],
    );
    let shown = text(&out.stdout) + &text(&out.stderr);
    assert!(
        shown.contains("looked up \"Copper Sky\" by name"),
        "{shown}"
    );
    // Two results with the title would be an error, not the first one.
    assert!(shown.contains("several found"), "{shown}");
    // No exact match is an error that says so, never another movie.
    let (code, value, err) = run(
        home.path(),
        "what is the runtime of Copper Skies Forever?",
        &["--yes"],
    );
    assert_eq!(code, Some(1), "{value}: {err}");
    assert!(err.contains("nothing found"), "{err}");
}

/// Questions about a named thing answered from a list in its details: a
/// crew job, the cast, a list of names, a count; the kind of thing (a
/// movie or a TV show) is looked up, not guessed. Phrasings and names
/// the goal suite does not have.
#[test]
fn a_named_things_cast_crew_and_lists_answer_questions_about_it() {
    let Some(doc) = tmdb() else { return };
    let server = fixture_server();
    let home = imported_home(&server, &doc, "/3", "tmdb");
    let h = home.path();
    let yes = ["--yes"];
    right(
        h,
        "who directed Harbor Lights?",
        &yes,
        json!(["Mara Okafor"]),
    );
    right(
        h,
        "who is the director of Northbound?",
        &yes,
        json!(["Dario Ferreira"]),
    );
    right(
        h,
        "what genres is Copper Sky?",
        &yes,
        json!(["Science Fiction", "Adventure"]),
    );
    right(
        h,
        "who acted in The Last Ferry?",
        &yes,
        json!(["Sam Whitlock", "Carmen Ibarra", "Theo Marchetti"]),
    );
    right(
        h,
        "how many movies has Grace Okonkwo acted in?",
        &yes,
        json!(4),
    );
    // A role in the cast of the thing named after "in".
    right(
        h,
        "who played June Halloway in Midnight Orchard?",
        &yes,
        json!(["Ines Duval"]),
    );
    // A person's movies by a job: titles, not people.
    let (code, value, err) = run(h, "which movies did Priya Raman direct?", &yes);
    assert_eq!(code, Some(0), "{err}");
    let mut titles: Vec<&str> = value
        .as_array()
        .unwrap_or_else(|| panic!("{value}"))
        .iter()
        .filter_map(Value::as_str)
        .collect();
    titles.sort();
    assert_eq!(
        titles,
        ["Run, Ollie, Run", "Sugar & Static", "Wax Museum Nights"]
    );
    // The first of a list the API ranks as asked, by its title.
    right(
        h,
        "what is the most popular movie?",
        &yes,
        json!("Copper Sky: Ascent"),
    );
    // A title may be a movie's or a TV show's: both are looked up and
    // the one that has it answers, shown in the explanation.
    let out = ccos(h, &["plan", "--explain", "who directed Harbor Lights?"]);
    let shown = text(&out.stdout) + &text(&out.stderr);
    assert!(shown.contains("may be any of 2 kinds"), "{shown}");
    assert!(shown.contains("tmdb.GET_search-tv"), "{shown}");
    assert!(shown.contains("several found"), "{shown}");
    // Nothing of either kind has the name: an error that says so.
    let (code, value, err) = run(h, "who directed Copper Skies Forever?", &yes);
    assert_eq!(code, Some(1), "{value}: {err}");
    assert!(err.contains("nothing found"), "{err}");
    // Not what the list answers: the ranked list's first movie is not
    // "the most popular genre" nor its budget; "wrote" names no one job;
    // "the best movie" names no ranking the API has.
    for goal in [
        "what is the most popular movie genre?",
        "what is the top rated movie's budget?",
        "who wrote Harbor Lights?",
        "what is the best movie?",
    ] {
        let (code, value, err) = run(h, goal, &yes);
        assert_eq!(code, Some(4), "{goal} gave {value}: {err}");
    }
}

/// The attack trial of lookups by name over an API that is not TMDB (a
/// music catalog; an artist and an album share a name, a field the schema
/// declares is absent, a job nobody has): every question is right,
/// refused, or an error that says why, never an answer to another
/// question. Each refusal below once answered with exit 0.
#[test]
fn lookups_by_name_answer_only_what_is_asked() {
    let server = LoopbackServer::start(|req| {
        let q = req.query_param("query").unwrap_or("").replace('+', " ");
        let page = |rows: Vec<Value>| json!({"page": 1, "results": rows});
        let body = match req.path.as_str() {
            "/search/artist" => page(if q.eq_ignore_ascii_case("Mara Okafor") {
                vec![json!({"id": 1, "name": "Mara Okafor", "popularity": 9.0})]
            } else {
                vec![]
            }),
            "/search/album" => page(
                [
                    json!({"id": 10, "title": "Night Train", "year": 2010, "popularity": 5.0}),
                    json!({"id": 11, "title": "Mara Okafor", "year": 2008, "popularity": 4.0}),
                ]
                .into_iter()
                .filter(|r| {
                    r["title"]
                        .as_str()
                        .is_some_and(|t| t.eq_ignore_ascii_case(&q))
                })
                .collect(),
            ),
            // `born` is null: not known.
            "/artist/1" => {
                json!({"id": 1, "name": "Mara Okafor", "country": "Nigeria", "born": null})
            }
            // No `label`, although the schema has one.
            "/album/10" => json!({"id": 10, "title": "Night Train", "year": 2010,
                                  "genres": [{"id": 1, "name": "Blues"}]}),
            "/album/11" => json!({"id": 11, "title": "Mara Okafor", "year": 2008, "genres": []}),
            // Sam Whitlock credited twice (one person); two different
            // people called Ana Reyes.
            "/album/10/credits" => json!({
                "cast": [{"id": 2, "name": "Sam Whitlock", "character": "Vocals"},
                         {"id": 2, "name": "Sam Whitlock", "character": "Guitar"},
                         {"id": 5, "name": "Ana Reyes", "character": "Piano"},
                         {"id": 6, "name": "Ana Reyes", "character": "Bass"}],
                "crew": [{"id": 3, "name": "Lena Park", "job": "Producer"}]}),
            "/album/top_rated" => page(vec![
                json!({"id": 10, "title": "Night Train", "year": 2010, "popularity": 5.0}),
            ]),
            _ => return Reply::json(404, &json!({"error": "not found"})),
        };
        Reply::json(200, &body)
    });
    let obj = |props: Value| json!({"type": "object", "properties": props});
    let list = |item: Value| json!({"type": "array", "items": obj(item)});
    let op = |id: &str, summary: &str, params: Value, result: Value| {
        json!({"get": {"operationId": id, "summary": summary, "parameters": params,
            "responses": {"200": {"description": "ok",
                "content": {"application/json": {"schema": result}}}}}})
    };
    let query =
        json!([{"name": "query", "in": "query", "required": true, "schema": {"type": "string"}}]);
    let id_param = |name: &str| json!([{"name": name, "in": "path", "required": true, "schema": {"type": "integer"}}]);
    let artist_hit = json!({"id": {"type": "integer"}, "name": {"type": "string"}, "popularity": {"type": "number"}});
    let album_hit = json!({"id": {"type": "integer"}, "title": {"type": "string"}, "year": {"type": "integer"}, "popularity": {"type": "number"}});
    let doc = json!({
        "openapi": "3.0.3",
        "info": {"title": "music", "version": "1"},
        "servers": [{"url": server.url("")}],
        "paths": {
            "/search/artist": op("search-artist", "Search for artists", query.clone(),
                obj(json!({"results": list(artist_hit.clone())}))),
            "/search/album": op("search-album", "Search for albums", query,
                obj(json!({"results": list(album_hit.clone())}))),
            "/artist/{artist_id}": op("artist-details", "Get an artist's details", id_param("artist_id"),
                obj(json!({"id": {"type": "integer"}, "name": {"type": "string"},
                           "country": {"type": "string"}, "born": {"type": "integer"}}))),
            "/album/{album_id}": op("album-details", "Get an album's details", id_param("album_id"),
                obj(json!({"id": {"type": "integer"}, "title": {"type": "string"}, "year": {"type": "integer"},
                           "label": {"type": "string"},
                           "genres": list(json!({"id": {"type": "integer"}, "name": {"type": "string"}}))}))),
            "/album/{album_id}/credits": op("album-credits", "Get the cast and crew of an album", id_param("album_id"),
                obj(json!({"cast": list(json!({"id": {"type": "integer"}, "name": {"type": "string"}, "character": {"type": "string"}})),
                           "crew": list(json!({"id": {"type": "integer"}, "name": {"type": "string"}, "job": {"type": "string"}}))}))),
            "/album/top_rated": op("album-top_rated", "Get the top rated albums", json!([]),
                obj(json!({"results": list(album_hit)}))),
        }
    });
    let home = home(true);
    let h = home.path();
    import_inline(h, "music", &doc);
    let yes = ["--yes"];
    right(h, "who produced Night Train?", &yes, json!(["Lena Park"]));
    // Credited twice, one person; two people who share a name, two.
    right(
        h,
        "who played on Night Train?",
        &yes,
        json!(["Sam Whitlock", "Ana Reyes", "Ana Reyes"]),
    );
    right(h, "what genres is Night Train?", &yes, json!(["Blues"]));
    right(h, "what year was Night Train released?", &yes, json!(2010));
    // "Mara Okafor" is an artist and an album; only an artist has a
    // country, so the artist answers.
    right(
        h,
        "what country is Mara Okafor from?",
        &yes,
        json!("Nigeria"),
    );
    // A role: the cast member whose character it is (one of the two Ana
    // Reyes).
    right(
        h,
        "who played Piano on Night Train?",
        &yes,
        json!(["Ana Reyes"]),
    );
    right(
        h,
        "what is the top rated album?",
        &yes,
        json!("Night Train"),
    );
    // "album number 10": the album's number is its id.
    let (code, value, err) = run(h, "show me album number 10", &yes);
    assert_eq!(
        (code, &value["title"]),
        (Some(0), &json!("Night Train")),
        "{err}"
    );
    for goal in [
        // Words that ask something the field is not.
        "what genres did Night Train influence?",
        "what country did Mara Okafor move to?",
        "what year was Night Train recorded?",
        "who produced Night Train for the second time?",
        // A kind the catalog does not have.
        "which shows did Mara Okafor produce?",
        // One of a ranking, and something of it.
        "who produced the top rated album?",
        // A maker, not a title.
        "who produced the album by Mara Okafor?",
        // A search finds albums called its query, not an artist's albums.
        "what albums does Mara Okafor have?",
        // A number that is no id.
        "which album has number 10?",
        // One of a ranking, said without "the".
        "which album is top rated?",
    ] {
        let (code, value, err) = run(h, goal, &yes);
        assert_eq!(code, Some(4), "{goal} gave {value}: {err}");
    }
    // What the data lacks is an error that says so, never `null` or `[]`.
    for (goal, says) in [
        ("what label is Night Train on?", "has no label"),
        // Present, and null: not known, which is no answer either.
        ("when was Mara Okafor born?", "has no born"),
        ("who directed Night Train?", "none found"),
        ("what genres is Mara Okafor?", "none found"),
    ] {
        let (code, value, err) = run(h, goal, &yes);
        assert_eq!(code, Some(1), "{goal} gave {value}: {err}");
        assert!(err.contains(says), "{goal}: {err}");
    }
}

#[test]
fn durations_and_unknown_units_are_not_plain_numbers() {
    let home = home(false);
    // "2 h" once went in as 7200 seconds, and "the second number" read
    // as a parameter in seconds.
    for goal in [
        "subtract 10 from 2 h",
        "add 2 h and 3",
        "divide 1 hour by 60",
        "add 5 ms and 3",
    ] {
        refused(home.path(), goal, "duration");
    }
    // A duration is no text to lower-case.
    refused(home.path(), "convert 2 hours to seconds", "2 hours");
    // A word after a number that nothing knows is what it measures.
    refused(home.path(), "add 5 apples and 3", "apples");
    // Words that only ask are named as such.
    refused(home.path(), "can you help me?", "\"help\") ask");
    // Durations still go where a time is meant.
    right(home.path(), "wait 1 second", &[], json!(1000));
}

/// "the weather in Seattle, Washington": the region belongs to the place
/// (or to the parameter for it), never a dropped value that refuses the
/// goal, nor a second place.
#[test]
fn a_place_named_with_its_region_is_one_place() {
    let server = LoopbackServer::start(|req| {
        Reply::json(200, &json!({"path": req.path, "query": req.query}))
    });
    let home = home(true);
    let doc = json!({
        "openapi": "3.0.3",
        "info": {"title": "places", "version": "1"},
        "servers": [{"url": server.url("")}],
        "paths": {
            "/weather": get_op("getCurrentWeather", "Get the current weather in a location", json!([{"name": "location", "required": true,
                    "description": "The city and state, e.g. San Francisco, CA",
                    "schema": {"type": "string"}}])),
            "/timediff": get_op("getTimeDifference", "Get the time difference between two places", json!([
                    {"name": "place1", "required": true, "schema": {"type": "string"}},
                    {"name": "place2", "required": true, "schema": {"type": "string"}}
                ])),
            "/distance": get_op("findShortestDistance", "Find the shortest driving distance between two cities", json!([
                    {"name": "start_city", "required": true, "schema": {"type": "string"}},
                    {"name": "end_city", "required": true, "schema": {"type": "string"}}
                ])),
            "/restaurants": get_op("findRestaurant", "Find a restaurant by location and diet option", json!([
                    {"name": "location", "required": true, "schema": {"type": "string"}},
                    {"name": "diet_option", "required": true, "schema": {"type": "string"}}
                ])),
            "/museumhours": get_op("getMuseumWorkingHours", "Get the working hours of a museum", json!([
                    {"name": "museum", "required": true, "schema": {"type": "string"}},
                    {"name": "day", "required": false, "schema": {"type": "string"}}
                ])),
            "/convert": get_op("convertCurrency", "Convert an amount from one currency to another", json!([
                    {"name": "amount", "required": true, "schema": {"type": "number"}},
                    {"name": "from_currency", "required": true, "schema": {"type": "string"}},
                    {"name": "to_currency", "required": true, "schema": {"type": "string"}}
                ])),
            "/books": get_op("searchBooks", "Search books", json!([
                    {"name": "q", "required": true, "description": "search query", "schema": {"type": "string"}},
                    {"name": "limit", "required": false, "description": "how many results", "schema": {"type": "integer"}}
                ])),
            "/salestax": get_op("getSalesTaxRate", "Get the sales tax rate of a city", json!([
                    {"name": "city", "required": true, "schema": {"type": "string"}},
                    {"name": "state", "required": true, "schema": {"type": "string"}}
                ]))
        }
    });
    import_inline(home.path(), "places", &doc);
    let (code, value, err) = run(
        home.path(),
        "what's the current weather in Seattle, Washington?",
        &[],
    );
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(value["path"], json!("/weather"), "{value}");
    assert_eq!(
        server
            .requests()
            .last()
            .and_then(|r| decoded(r, "location")),
        Some("Seattle, Washington".to_string()),
        "{value}"
    );
    let last = sent(
        home.path(),
        &server,
        "get the sales tax rate of Chicago, Illinois",
        "/salestax",
    );
    assert_eq!(
        decoded(&last, "city").as_deref(),
        Some("Chicago"),
        "{last:?}"
    );
    assert_eq!(
        decoded(&last, "state").as_deref(),
        Some("Illinois"),
        "{last:?}"
    );
    // "between A and B": the pair in order; a count of cities is none of
    // them; "near" names a place.
    for (goal, path, first, second, want) in [
        (
            "what's the time difference between San Francisco and Sydney?",
            "/timediff",
            "place1",
            "place2",
            ("San Francisco", "Sydney"),
        ),
        (
            "find a restaurant with Gluten-free options near Brooklyn",
            "/restaurants",
            "location",
            "diet_option",
            ("Brooklyn", "Gluten-free"),
        ),
        (
            "find the shortest driving distance between two cities, New York and Los Angeles",
            "/distance",
            "start_city",
            "end_city",
            ("New York", "Los Angeles"),
        ),
    ] {
        let last = sent(home.path(), &server, goal, path);
        assert_eq!(decoded(&last, first).as_deref(), Some(want.0), "{goal}");
        assert_eq!(decoded(&last, second).as_deref(), Some(want.1), "{goal}");
    }
    // "to currency EUR": the preposition before a labelling noun is the
    // value's own; the direction was reversed (attack trial).
    let last = sent(
        home.path(),
        &server,
        "convert 100 to currency EUR from currency USD",
        "/convert",
    );
    assert_eq!(
        decoded(&last, "from_currency").as_deref(),
        Some("USD"),
        "{last:?}"
    );
    assert_eq!(
        decoded(&last, "to_currency").as_deref(),
        Some("EUR"),
        "{last:?}"
    );
    // A search's text is its topic, without the label of another value
    // (it was q="cats, limit").
    let last = sent(
        home.path(),
        &server,
        "search books about cats, limit 2",
        "/books",
    );
    assert_eq!(decoded(&last, "q").as_deref(), Some("cats"), "{last:?}");
    assert_eq!(decoded(&last, "limit").as_deref(), Some("2"), "{last:?}");
    // A stated value put in an optional parameter while the required one
    // is asked: which is which is a guess (it was the museum as the day,
    // and a question for the museum).
    refused(
        home.path(),
        "get the working hours of Tate Modern",
        "which is which is not said",
    );
    // A name whose last word names the parameter says which it is.
    let last = sent(
        home.path(),
        &server,
        "get the working hours of Louvre Museum",
        "/museumhours",
    );
    assert_eq!(
        decoded(&last, "museum").as_deref(),
        Some("Louvre Museum"),
        "{last:?}"
    );
    // A list of places is no place and its region: one call each, never
    // "Boston, Chicago".
    let before = server.requests().len();
    let (code, value, err) = run(
        home.path(),
        "what's the current weather in Boston, Chicago and Denver?",
        &[],
    );
    let seen: Vec<String> = server.requests()[before..]
        .iter()
        .filter_map(|r| decoded(r, "location"))
        .collect();
    assert!(
        seen.iter().all(|l| !l.contains(',')),
        "{code:?} {value} {seen:?}: {err}"
    );
}

/// A query parameter's value, with the form encoding of commas and spaces
/// undone.
fn decoded(r: &ccos_testkit::http::Request, name: &str) -> Option<String> {
    r.query_param(name)
        .map(|v| v.replace('+', " ").replace("%2C", ",").replace("%20", " "))
}

/// Runs `goal`, asserts it succeeded by calling `path` on `server`, and
/// returns the request the server received.
fn sent(
    home: &Path,
    server: &LoopbackServer,
    goal: &str,
    path: &str,
) -> ccos_testkit::http::Request {
    let (code, value, err) = run(home, goal, &[]);
    assert_eq!(code, Some(0), "{goal}: {err}");
    assert_eq!(value["path"], json!(path), "{goal}: {value}");
    server.requests().last().cloned().unwrap()
}

/// A quoted or named value goes only where its meaning fits: a topic is
/// no id, a title no date, a name after "named" no id; a compound's
/// number ("4-star") is a value like any other. Attack trials over an
/// imported calendar and shop.
#[test]
fn values_go_only_where_their_meaning_fits() {
    let server = LoopbackServer::start(|req| {
        Reply::json(200, &json!({"path": req.path, "query": req.query}))
    });
    let home = home(true);
    let id_param = json!({"name": "eventId", "in": "path", "required": true,
        "description": "Event id", "schema": {"type": "string"}});
    let doc = json!({
        "openapi": "3.0.3",
        "info": {"title": "calendar", "version": "1"},
        "servers": [{"url": server.url("")}],
        "paths": {
            "/events": get_op("listEvents", "List events", json!([
                {"name": "q", "description": "Text to search in titles", "schema": {"type": "string"}},
                {"name": "start", "description": "Start date (YYYY-MM-DD)",
                 "schema": {"type": "string", "format": "date"}}
            ])),
            "/events/{eventId}": {
                "get": {"operationId": "getEvent", "summary": "Get an event",
                        "parameters": [id_param.clone()], "responses": {"200": {"description": "ok"}}},
                "delete": {"operationId": "deleteEvent", "summary": "Delete an event",
                           "parameters": [id_param], "responses": {"200": {"description": "ok"}}}
            },
            "/reminders": {"post": {"operationId": "createReminder", "summary": "Create a reminder",
                "requestBody": {"required": true, "content": {"application/json": {"schema": {
                    "type": "object", "required": ["message", "remind_at"],
                    "properties": {
                        "message": {"type": "string", "description": "Reminder text"},
                        "remind_at": {"type": "string", "format": "date-time",
                                      "description": "When to remind (ISO 8601)"}}}}}},
                "responses": {"200": {"description": "ok"}}}},
            "/products/{productId}/reviews": get_op("listProductReviews", "List reviews of a product", json!([
                {"name": "productId", "required": true, "description": "Product id",
                 "schema": {"type": "integer"}},
                {"name": "min_rating", "description": "Minimum star rating (1-5)",
                 "schema": {"type": "integer", "minimum": 1, "maximum": 5}}
            ]))
        }
    });
    let mut doc = doc;
    // The reviews' product id is a path parameter.
    doc["paths"]["/products/{productId}/reviews"]["get"]["parameters"][0]["in"] = json!("path");
    import_inline(home.path(), "cal", &doc);
    // A topic is what to search for, not an event's id.
    let r = sent(
        home.path(),
        &server,
        "find events about \"budget\"",
        "/events",
    );
    assert_eq!(decoded(&r, "q").as_deref(), Some("budget"));
    // A name is no id: nothing is deleted by a guess.
    let before = server.requests().len();
    for goal in [
        "Please delete the event named \"Offsite\"",
        "create a reminder \"pay rent\" and a reminder \"water plants\"",
    ] {
        let (code, value, err) = run(home.path(), goal, &["--yes"]);
        assert_ne!(code, Some(0), "{goal} gave {value}: {err}");
    }
    assert_eq!(server.requests().len(), before, "{:?}", server.requests());
    // "4-star and above" is the minimum rating (it was dropped unseen).
    let r = sent(
        home.path(),
        &server,
        "show 4-star and above reviews for product 88",
        "/products/88/reviews",
    );
    assert_eq!(decoded(&r, "min_rating").as_deref(), Some("4"));
}

/// Imports the OpenAPI document `doc` under `prefix`./// Imports the OpenAPI document `doc` under `prefix`.
fn import_inline(home: &Path, prefix: &str, doc: &Value) {
    let doc_path = write(home, &format!("{prefix}.json"), &doc.to_string());
    let out = ccos(
        home,
        &["caps", "import-openapi", &doc_path, "--prefix", prefix],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

/// "the BMI (Body Mass Index)": an acronym and its expansion name what to
/// compute, not a value the plan drops (refused) or puts in a parameter
/// (`unit: "Body Mass Index"`).
#[test]
fn an_acronym_glossed_in_parentheses_names_the_operation() {
    let server = LoopbackServer::start(|req| Reply::json(200, &json!({"query": req.query})));
    let home = home(true);
    let doc = json!({
        "openapi": "3.0.3",
        "info": {"title": "health", "version": "1"},
        "servers": [{"url": server.url("")}],
        "paths": {"/bmi": get_op("calculate_BMI", "Calculate the Body Mass Index (BMI) of a person", json!([
                {"name": "weight_kg", "required": true,
                 "description": "Weight of the person in kilograms", "schema": {"type": "number"}},
                {"name": "height_m", "required": true,
                 "description": "Height of the person in meters", "schema": {"type": "number"}}
            ]))}
    });
    import_inline(home.path(), "health", &doc);
    for goal in [
        "calculate the BMI (Body Mass Index) of a person who weighs 70kg and is 1.75m tall",
        "calculate the Body Mass Index (BMI) of a person who weighs 70kg and is 1.75m tall",
    ] {
        let (code, value, err) = run(home.path(), goal, &[]);
        assert_eq!(code, Some(0), "{goal}: {err}");
        let last = server.requests().last().cloned().unwrap();
        assert_eq!(
            decoded(&last, "weight_kg").as_deref(),
            Some("70"),
            "{value}"
        );
        assert_eq!(
            decoded(&last, "height_m").as_deref(),
            Some("1.75"),
            "{value}"
        );
    }
}

/// An OpenAPI GET operation with query `parameters`, answering 200.
fn get_op(operation_id: &str, summary: &str, parameters: Value) -> Value {
    let parameters: Vec<Value> = parameters
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .map(|mut p| {
            p["in"] = json!("query");
            p
        })
        .collect();
    json!({"get": {
        "operationId": operation_id,
        "summary": summary,
        "parameters": parameters,
        "responses": {"200": {"description": "ok"}}
    }})
}

/// `ccos plan GOAL` in `<home>/work`: (exit code, plan text, stderr).
fn plan_in_work(home: &Path, goal: &str) -> (Option<i32>, String, String) {
    let out = crate::support::cmd(home, &["plan", goal])
        .current_dir(home.join("work"))
        .output();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// Files of a kind are searched for where the goal says (an attack trial
/// on the file patterns): at any depth, in the folders named (never left
/// out as exclusions), never in a folder named for a file, never with a
/// pattern that leaves the folder searched; a file is never made a folder.
#[test]
fn files_of_a_kind_are_searched_where_the_goal_says() {
    let Some(s) = TestServers::find() else { return };
    let home = home(false);
    let work = home.path().join("work");
    write(&work, "docs/intro.md", "# intro\n");
    write(&work, "docs/archive/old.md", "# old\n");
    write(&work, "src/main.py", "print(1)\n");
    write(&work, "scripts/tool.py", "print(2)\n");
    write(&work, "data/config.json", "{}\n");
    let bin = s.node_bin("mcp-server-filesystem").display().to_string();
    let work_s = work.display().to_string();
    let out = ccos(home.path(), &["mcp", "add", "fs", "--", &bin, &work_s]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = ccos(home.path(), &["mcp", "discover", "fs"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));

    for (goal, found, not_found) in [
        (
            "find all markdown files, including in subfolders",
            &["README.md", "intro.md", "old.md"][..],
            &["lines.txt", "data.json"][..],
        ),
        // A kind of file is found at any depth without saying so.
        (
            "find all python files",
            &["main.py", "tool.py"],
            &["README.md"],
        ),
        // A written glob with "recursively" too.
        (
            "search for *.md recursively",
            &["README.md", "old.md"],
            &["main.py"],
        ),
        // The folders named are where to look.
        (
            "find python files in src/ and scripts/",
            &["main.py", "tool.py"],
            &["README.md"],
        ),
    ] {
        let (code, value, err) = run(home.path(), goal, &[]);
        assert_eq!(code, Some(0), "{goal}: {err}");
        let v = value.to_string();
        for f in found {
            assert!(v.contains(f), "{goal}: {f} not in {v}");
        }
        for f in not_found {
            assert!(!v.contains(f), "{goal}: {f} in {v}");
        }
    }
    let (_, plan, err) = plan_in_work(home.path(), "find python files in src/ and scripts/");
    assert!(!plan.contains("exclude"), "{plan} {err}");
    // A file's name is not the folder to search; a pattern leaving the
    // folder searched is not bound.
    refused(home.path(), "find json files named data", "data");
    refused(home.path(), "find /etc/*.conf", "/etc/*.conf");
    // A folder the mentions do not read is never the current one.
    let (_, plan, err) = plan_in_work(home.path(), "find markdown files in ~");
    assert!(!plan.contains(":path \".\""), "{plan} {err}");
    // "create a file" makes no directory.
    let (_, plan, err) = plan_in_work(home.path(), "create a file named test.md");
    assert!(!plan.contains("create_directory"), "{plan} {err}");
}

/// Variations, repeats and statements (two attack trials): a variation
/// repeats a reading clause with its values; one that cannot say which
/// value changes, a repeat of a write, and a statement of facts that asks
/// for nothing are refused, never folded into another request.
#[test]
fn variations_repeat_a_request_and_statements_are_refused() {
    let home = home(false);
    right(
        home.path(),
        "count the words in 'a b c', then do the same for 'd e'",
        &[],
        json!([3, 2]),
    );
    for (goal, names) in [
        (
            "The list is [5,1,4,2]. Sort [9,8,7].",
            "states facts and asks for nothing",
        ),
        // A requirement is no request either (it ran as a call of its own).
        (
            "The time must be in UTC. What time is it now?",
            "\"The time must be in UTC\" states facts",
        ),
        ("Sort [3,1,2], then the same for [9,8,7].", "the same for"),
        (
            "What is the max of [3,9,4]? What about [1,7]? And the min?",
            "what about",
        ),
        ("append 'hello' to log.txt, then again", "\"again\""),
        (
            "write 'hello' to out1.txt; what about out2.txt?",
            "what about",
        ),
        (
            "write 'hello' to out1.txt; is out2.txt the same?",
            "out2.txt",
        ),
        (
            "take the first 3 items of [5,1,4,2,7,8], then what about 2 more?",
            "2",
        ),
    ] {
        refused(home.path(), goal, names);
    }
    let work = home.path().join("work");
    for f in ["log.txt", "out1.txt", "out2.txt"] {
        assert!(!work.join(f).exists(), "{f} was written");
    }
}

/// A new user's trial (helper, 227 goals over the built-ins): operands
/// given second-first were subtracted in the order typed ("15 subtracted
/// from 40" gave -25); a write of a computed or described value asked the
/// user for its content and wrote the answer; "pretty-printed" was
/// dropped and the file copied as it was.
#[test]
fn new_user_phrasings_are_answered_right_or_refused() {
    let home = home(false);
    for (goal, want) in [
        ("what is 15 subtracted from 40", json!(25)),
        ("what do you get if you subtract 5 from 12?", json!(7)),
        ("take 8 away from 20", json!(12)),
        ("Can you tell me what 6 times 7 is?", json!(42)),
        ("multiply 2, 3 and 4", json!(24)),
    ] {
        right(home.path(), goal, &[], want);
    }
    // What the fallback cannot order is refused, never guessed.
    refused(
        home.path(),
        "what is 15 subtracted from 40 exactly",
        "\"from\" 40: which is :a and which :b is not said",
    );
    let work = home.path().join("work");
    // A count written to a file: the number, as text.
    let (code, _, err) = run(
        home.path(),
        "count the words in lines.txt and write the number to count.txt",
        &["--yes"],
    );
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        std::fs::read_to_string(work.join("count.txt")).unwrap(),
        "3"
    );
    // A described value is a request of its own, then written.
    let (code, _, err) = run(home.path(), "write the current time to now.txt", &["--yes"]);
    assert_eq!(code, Some(0), "{err}");
    let now = std::fs::read_to_string(work.join("now.txt")).unwrap();
    assert!(now.starts_with("20") && now.ends_with('Z'), "{now}");
    // A copy is a read and a write of the same text.
    let (code, _, err) = run(home.path(), "copy lines.txt to copy.txt", &["--yes"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        std::fs::read_to_string(work.join("copy.txt")).unwrap(),
        "alpha beta\ngamma\n"
    );
    // A layout the write does not make is refused, nothing written.
    refused(
        home.path(),
        "read data.json and save it pretty-printed to pretty.json",
        "pretty-printed",
    );
    assert!(!work.join("pretty.json").exists());
}

/// Lists made of files: the numbers a file holds, a JSON file's value
/// (new-user trial: "the biggest number in numbers.txt" was refused); and
/// the attack on back references to earlier results (each of these was
/// answered wrong with exit 0).
#[test]
fn files_become_lists_and_back_references_are_checked() {
    let home = home(false);
    let work = home.path().join("work");
    write(&work, "numbers.txt", "42\n7\n19\n3\n88\n");
    write(&work, "people.json", r#"[{"name":"Ada"},{"name":"Grace"}]"#);
    right(
        home.path(),
        "what is the biggest number in numbers.txt?",
        &[],
        json!(88),
    );
    right(
        home.path(),
        "sort the numbers in numbers.txt",
        &[],
        json!([3, 7, 19, 42, 88]),
    );
    right(home.path(), "count the items in people.json", &[], json!(2));
    // "the number" after a count, in the order the goal says.
    right(
        home.path(),
        "count the words in lines.txt and subtract 1 from the number",
        &[],
        json!(2),
    );
    for (goal, names) in [
        // A write returns its receipt, not what it wrote.
        (
            "copy lines.txt to b.txt and count its words",
            "returns only what it did",
        ),
        // "the number" of a text.
        (
            "read lines.txt and write the number to x.txt",
            "\"the number\", and the earlier result",
        ),
        // Which earlier result "the answer" is.
        (
            "add 2 and 3 then get the current time and write the answer to x.txt",
            "which earlier result it means",
        ),
        // Two things into one file.
        (
            "count the words in lines.txt and write the number and the current time to x.txt",
            "several things into one file",
        ),
    ] {
        refused(home.path(), goal, names);
    }
    for f in ["x.txt", "b.txt"] {
        assert!(!work.join(f).exists(), "{f} was written");
    }
    // Second attack: no guessed numbers, orders or folders.
    write(&work, "mixed.txt", "It weighs 1,000 grams.\n");
    let (code, value, err) = run(home.path(), "what is the biggest number in mixed.txt?", &[]);
    assert_eq!(code, Some(1), "a digit group is no number to guess: {err}");
    assert!(format!("{value}{err}").contains("1,000"), "{value} {err}");
    let (code, value, err) = run(home.path(), "sort people.json", &[]);
    assert_eq!(code, Some(1), "maps have no order of their own: {err}");
    assert!(
        format!("{value}{err}").contains("say the key"),
        "{value} {err}"
    );
    refused(
        home.path(),
        "what is the biggest number in numbers.txt and lines.txt?",
        "would drop",
    );
    std::fs::create_dir_all(work.join("docs")).unwrap();
    let (code, _, err) = run(home.path(), "list the files in docs/../..", &[]);
    assert_eq!(code, Some(3), "the parent is outside the roots: {err}");
    // Sorted lines are written one per line.
    let (code, _, err) = run(
        home.path(),
        "sort the lines of lines.txt and write them to sorted.txt",
        &["--yes"],
    );
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        std::fs::read_to_string(work.join("sorted.txt")).unwrap(),
        "alpha beta\ngamma"
    );
}

/// Records in a JSON file by a field the goal names (new-user trial:
/// "sort people.json by age" was refused; `where "city" is "London"`
/// swapped the key and the value and answered `[]`).
#[test]
fn records_are_sorted_filtered_and_counted_by_the_field_named() {
    let home = home(false);
    let work = home.path().join("work");
    write(
        &work,
        "people.json",
        r#"[{"name":"Ada","age":36,"city":"London"},{"name":"Grace","age":45,"city":"Paris"},{"name":"Alan","age":41,"city":"London"}]"#,
    );
    let ada = json!({"name": "Ada", "age": 36, "city": "London"});
    let grace = json!({"name": "Grace", "age": 45, "city": "Paris"});
    let alan = json!({"name": "Alan", "age": 41, "city": "London"});
    right(
        home.path(),
        "sort people.json by age",
        &[],
        json!([ada, alan, grace]),
    );
    right(
        home.path(),
        "sort the people in people.json by age, oldest first",
        &[],
        json!([grace, alan, ada]),
    );
    right(
        home.path(),
        "list people.json entries whose city is London",
        &[],
        json!([ada, alan]),
    );
    right(
        home.path(),
        r#"filter people.json where "city" is "Paris""#,
        &[],
        json!([grace]),
    );
    right(
        home.path(),
        "find the people in people.json whose age is 41",
        &[],
        json!([alan]),
    );
    right(
        home.path(),
        "how many people are in people.json?",
        &[],
        json!(3),
    );
    right(
        home.path(),
        "how many records are in people.json?",
        &[],
        json!(3),
    );
    right(
        home.path(),
        "show the first 2 people from people.json",
        &[],
        json!([ada, grace]),
    );
    // Alphabetically: as words, case aside; numbers by their digits.
    write(&work, "words.txt", "pear\nBanana\napple\n");
    right(
        home.path(),
        "sort the lines of words.txt alphabetically",
        &[],
        json!(["apple", "Banana", "pear"]),
    );
    right(
        home.path(),
        "sort [10, 9, 100] alphabetically",
        &[],
        json!([10, 100, 9]),
    );
    right(
        home.path(),
        "show the first 2 lines of words.txt",
        &[],
        json!(["pear", "Banana"]),
    );
    write(&work, "numbers.txt", "5\n3\n8\n");
    right(
        home.path(),
        "give me the first 2 numbers from numbers.txt",
        &[],
        json!([5, 3]),
    );
    for (goal, names) in [
        // Which case the data has is a guess.
        ("list people.json entries whose city is london", "london"),
        // An equality filter answers no comparison.
        (
            "list people.json entries whose age is greater than 40",
            "greater",
        ),
        // "newest" says no direction for an age.
        ("sort people.json by age, newest first", "newest"),
        // The distinct cities are not the records.
        ("how many cities are in people.json?", "cities"),
        // A bound is no value; two keys are not one; a direction that
        // contradicts itself says none (attack trial).
        ("list people.json entries whose age is 40 or more", "age"),
        ("sort people.json by age then name", "field \"name\""),
        ("sort people.json by name by age", "field \"age\""),
        // Files listed are no items to count; what a CSV holds is a guess.
        (
            "how many numbers are in people.json and lines.txt?",
            "numbers",
        ),
        ("sort people.json by age ascending, oldest first", "oldest"),
    ] {
        refused(home.path(), goal, names);
    }
}

/// Arithmetic and lists as a new user writes them (new-user trial).
#[test]
fn everyday_arithmetic_and_lists_as_people_write_them() {
    let home = home(false);
    let work = home.path().join("work");
    write(&work, "nums.txt", "4\n7\n4\n9\n");
    for (goal, want) in [
        ("what is negative 5 plus 12?", json!(7)),
        ("what's a quarter of 80", json!(20)),
        ("by how much does 50 exceed 20?", json!(30)),
        ("if I take 3 from 10 how many are left?", json!(7)),
        ("I'd like to know the total of 19 and 23", json!(42)),
        ("what is the sum of 42 and 58, divided by 4?", json!(25)),
        ("would you kindly sort [8, 6, 7]?", json!([6, 7, 8])),
        ("say hi", json!("hi")),
        (
            r#"join the words apple, banana, cherry with " - ""#,
            json!("apple - banana - cherry"),
        ),
        (
            "sort these words alphabetically: pear, apple, fig",
            json!(["apple", "fig", "pear"]),
        ),
        (
            "list the distinct items in [apple, pear, apple, plum]",
            json!(["apple", "pear", "plum"]),
        ),
        ("how many distinct numbers are in nums.txt?", json!(3)),
        (r#"what is the biggest number in "5, 17, 2, 9""#, json!(17)),
        ("what is the smallest number in '5, 17, 2, 9'?", json!(2)),
    ] {
        right(home.path(), goal, &[], want);
    }
}

/// A condition that names no key ("people who *live in* Paris", "the
/// people *from* Berlin") is on the one of the relation's keys the
/// records have (where one lives: `city`, `town`, `country`, …), case
/// aside; another time, a mood, a negation, a yes/no question, a
/// quantifier or more than one value is refused; no such key, or a record
/// without it, is an error (new-user trial, then the attack trial: a
/// person *named* Paris, "lives in Alice", a `former_city`).
#[test]
fn conditions_without_a_key_use_the_relations_keys() {
    let home = home(false);
    let work = home.path().join("work");
    write(
        &work,
        "people.json",
        r#"[{"name":"Ada","city":"Paris","former_city":"Rome"},{"name":"Paris","city":"London","former_city":"Paris"},{"name":"Cy","city":"paris","former_city":"Oslo"}]"#,
    );
    let ada = json!({"name": "Ada", "city": "Paris", "former_city": "Rome"});
    let cy = json!({"name": "Cy", "city": "paris", "former_city": "Oslo"});
    for (goal, want) in [
        (
            "which people in people.json live in Paris?",
            json!([ada, cy]),
        ),
        (
            "who in people.json lives in London?",
            json!([{"name": "Paris", "city": "London", "former_city": "Paris"}]),
        ),
        (
            "show me the people from PARIS in people.json",
            json!([ada, cy]),
        ),
        ("how many people in people.json live in London", json!(1)),
        (
            "keep only the people in people.json who live in Paris",
            json!([ada, cy]),
        ),
        ("which people in people.json live in Rome?", json!([])),
        ("who in people.json lives in Ada?", json!([])),
    ] {
        right(home.path(), goal, &[], want);
    }
    for (goal, names) in [
        ("which people in people.json used to live in Paris", "live"),
        ("which people in people.json lived in Paris", "lived"),
        ("which people in people.json were living in Paris", "living"),
        ("who in people.json will be living in Paris", "living"),
        ("do all people in people.json live in Paris?", "live"),
        ("do most people in people.json live in Paris?", "live"),
        (
            "which people in people.json live in Paris or London",
            "live",
        ),
        ("which people in people.json live near Paris", "live near"),
        ("which people in people.json live in paris", "paris"),
    ] {
        refused(home.path(), goal, names);
    }
    for (file, content, why) in [
        (
            "born/people.json",
            r#"[{"name":"Ada","born":"Paris"}]"#,
            "no key among :city",
        ),
        (
            "gaps/people.json",
            r#"[{"name":"Ada","city":"Paris"},{"name":"Bo"}]"#,
            "item 1 has no :city",
        ),
        (
            "both/people.json",
            r#"[{"city":"Paris","country":"FR"},{"city":"Nice","country":"Paris"}]"#,
            "more than one key",
        ),
    ] {
        write(&work, file, content);
        let goal = format!("which people in {file} live in Paris?");
        let (code, _, err) = run(home.path(), &goal, &[]);
        assert_eq!(code, Some(1), "{goal}: {err}");
        assert!(err.contains(why), "{goal}: {err}");
    }
}

/// A key asked of a JSON file ("what port is set in config.json", "the
/// tags in config.json", "the cities in people.json") is looked up
/// (`ccos.data.get`); a key the data lacks is an error naming its keys,
/// and a phrase that says more than the key is refused (new-user trial).
#[test]
fn keys_asked_of_a_json_file_are_looked_up() {
    let home = home(false);
    let work = home.path().join("work");
    write(
        &work,
        "config.json",
        r#"{"app_name":"demo","version":"1.4.2","debug":false,"port":8080,"tags":["web","api"],"size":"large","type":"service","count":7,"database":{"host":"db1"}}"#,
    );
    write(
        &work,
        "people.json",
        r#"[{"name":"Ada","city":"Paris"},{"name":"Bo","city":"London"}]"#,
    );
    for (goal, want) in [
        ("what port is set in config.json", json!(8080)),
        ("what's the version in config.json?", json!("1.4.2")),
        ("list the tags in config.json", json!(["web", "api"])),
        ("what is the app name in config.json", json!("demo")),
        ("what debug is set in config.json", json!(false)),
        ("list the cities in people.json", json!(["Paris", "London"])),
        // A file's property after "in", or said to be set, is a key.
        ("what size is set in config.json", json!("large")),
        ("what is the type in config.json", json!("service")),
        ("what's the count set in config.json", json!(7)),
        ("what is the database host in config.json", json!("db1")),
    ] {
        right(home.path(), goal, &[], want);
    }
    let (code, _, err) = run(home.path(), "what is the port in people.json", &[]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("no :port"), "{err}");
    // The key names other records, not the file's; more is asked than the
    // key; a plural that is no key's plural.
    for (goal, names) in [
        ("what are the names of the people in people.json", "people"),
        ("what port is set in config.json and why", "why"),
        ("list the tags in config.json and their count", "count"),
        ("list the people in people.json", "people"),
    ] {
        refused(home.path(), goal, names);
    }
    write(&work, "flags.json", r#"{"new": true}"#);
    let (code, _, err) = run(home.path(), "list the news in flags.json", &[]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("no :news"), "{err}");
    // The size *of* the file is the file's.
    right(
        home.path(),
        "what is the size of flags.json",
        &[],
        json!(13),
    );
}

/// Occurrences counted as people ask for them, and chat shorthand that
/// says nothing of the task (new-user trial).
#[test]
fn occurrences_and_chat_shorthand() {
    let home = home(false);
    let work = home.path().join("work");
    write(
        &work,
        "notes.txt",
        "The day Tom met Maria.\nTom left; the rain stayed.\nTomorrow, Maria said.\n",
    );
    for (goal, want) in [
        (
            r#"how many times does the letter a appear in "banana""#,
            json!(3),
        ),
        (r#"how many times does "Tom" appear in notes.txt"#, json!(2)),
        ("how many times is Maria mentioned in notes.txt?", json!(2)),
        ("how often does the word the appear in notes.txt?", json!(2)),
        ("hey, whats 9 plus 10", json!(19)),
        ("hey can u count the lines in notes.txt thx", json!(3)),
        ("pls sort the numbers 3, 1, 2", json!([1, 2, 3])),
    ] {
        right(home.path(), goal, &[], want);
    }
    // As a word or inside words: the counts differ, and the goal does not
    // say which.
    let (code, _, err) = run(
        home.path(),
        r#"how many times does "an" appear in "banana""#,
        &[],
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("as a word"), "{err}");
}

/// The second attack trial on records (this session's): values as a
/// reader means them, one key and one value per condition, directions
/// that agree, listings ordered by what "by" names.
#[test]
fn conditions_and_orders_are_read_whole_or_refused() {
    let home = home(false);
    let work = home.path().join("work");
    write(
        &work,
        "staff.json",
        r#"[{"name":"Mia","age":31,"dept":"Sales","active":true},{"name":"Eve","age":"29","dept":"IT","active":false},{"name":"Olga","age":58,"dept":"IT","active":true}]"#,
    );
    let mia = json!({"name": "Mia", "age": 31, "dept": "Sales", "active": true});
    let eve = json!({"name": "Eve", "age": "29", "dept": "IT", "active": false});
    let olga = json!({"name": "Olga", "age": 58, "dept": "IT", "active": true});
    // Numbers by value; a text spelling a number is that number; a
    // boolean however written.
    for (goal, want) in [
        ("list staff.json entries whose age is 31.0", json!([mia])),
        ("list staff.json entries whose age is 29", json!([eve])),
        (
            "list staff.json entries whose active is False",
            json!([eve]),
        ),
        ("sort staff.json by age DESC", json!([olga, mia, eve])),
        ("sort staff.json by age desc", json!([olga, mia, eve])),
        (
            "sort staff.json by age, high to low",
            json!([olga, mia, eve]),
        ),
        (
            "sort staff.json by age in increasing order",
            json!([eve, mia, olga]),
        ),
    ] {
        right(home.path(), goal, &[], want);
    }
    // A folder listed by a key: its entries, ordered.
    write(&work, "docs/big.txt", "0123456789");
    write(&work, "docs/small.txt", "0");
    let entries = |names: &[&str]| -> Value {
        Value::Array(
            names
                .iter()
                .map(|n| {
                    let size = if *n == "big.txt" { 10 } else { 1 };
                    json!({"name": n, "size": size, "type": "file"})
                })
                .collect(),
        )
    };
    right(
        home.path(),
        "list docs/ by size",
        &[],
        entries(&["small.txt", "big.txt"]),
    );
    right(
        home.path(),
        "sort the files in docs/ by size, largest first",
        &[],
        entries(&["big.txt", "small.txt"]),
    );
    // Lines: the final newline opens no empty one.
    write(&work, "notes.txt", "a\nb\n");
    right(
        home.path(),
        "split notes.txt by line",
        &[],
        json!(["a", "b"]),
    );
    for (goal, names) in [
        // Another value, a second condition, an approximation.
        (
            r#"list staff.json entries whose dept is "Sales" or IT"#,
            "dept",
        ),
        ("list staff.json entries whose dept is IT in Rome", "dept"),
        ("list staff.json entries whose age is 31 or so", "age"),
        ("list staff.json entries whose age is 31 and more", "age"),
        // Two keys, or two directions that disagree, are no one order.
        ("sort staff.json by age, and by name", "field \"name\""),
        (
            "sort staff.json by age descending then name",
            "field \"name\"",
        ),
        (
            "sort staff.json by age, descending, ascending",
            "\"ascending\"",
        ),
        (
            "sort staff.json by age ascending, largest first",
            "largest first",
        ),
        // Counting the distinct values of a field is not counting records.
        ("how many unique depts are in staff.json?", "depts"),
        // Second attack trial: values after the first in any writing, a
        // second order for ties, a reversal of another direction, an
        // earlier result no step takes, duplicates asked for.
        ("list staff.json entries whose dept is IT OR Sales", "dept"),
        (
            "list staff.json entries whose dept is IT (or Sales)",
            "dept",
        ),
        ("list staff.json entries whose age is 31 & 58", "age"),
        ("list staff.json entries whose dept is IT and so on", "dept"),
        (
            "sort staff.json by age, then alphabetically",
            "second order",
        ),
        ("sort staff.json by age descending in reverse", "in reverse"),
        ("sort staff.json by age and list them", "earlier result"),
        (
            "sort staff.json by age descending, then A-Z",
            "second order",
        ),
        ("list docs/ by how big they are", "how"),
    ] {
        refused(home.path(), goal, names);
    }
    right(
        home.path(),
        "list staff.json entries whose active is 'true'",
        &[],
        json!([mia, olga]),
    );
    write(&work, "nums.txt", "5\n3\n5\n");
    for (goal, names) in [
        ("list the duplicate numbers in nums.txt", "duplicates"),
        ("reverse the numbers in nums.txt", "numbers"),
        ("split 'nums.txt' by line", "file's name"),
        // A count in words before a superlative is stated (new-user
        // trial: "the three biggest" answered the biggest).
        ("what are the three biggest numbers in nums.txt", "three"),
    ] {
        refused(home.path(), goal, names);
    }
    // Dates whose day and month are both numbers: the order is a guess.
    write(
        &work,
        "dates.json",
        r#"[{"d":"1/15/2023"},{"d":"12/25/2021"}]"#,
    );
    let (code, _, err) = run(home.path(), "sort dates.json by d", &[]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("YYYY-MM-DD"), "{err}");
    // Records are a list's: one object has entries, not records.
    write(&work, "one.json", r#"{"a": 1, "b": 2}"#);
    let (code, _, err) = run(home.path(), "how many records are in one.json?", &[]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("not an array"), "{err}");
    right(home.path(), "count the entries in one.json", &[], json!(2));
    // "etc" inside a path is no open list: the write is denied by policy.
    let (code, _, err) = run(
        home.path(),
        "sort staff.json by age and write it to /etc/x.json",
        &["--yes"],
    );
    assert_eq!(code, Some(3), "{err}");
}

/// "the first line of notes.txt", "the last line", "line 2 of …": the
/// file's lines, then the one at that position; past the end is an error
/// (new-user trial: each was refused, "choosing from a list needs an
/// agent").
#[test]
fn a_line_at_a_position_of_a_file() {
    let home = home(false);
    let work = home.path().join("work");
    write(&work, "notes.txt", "alpha beta\n\ngamma\ndelta\n");
    for (goal, want) in [
        ("what is the first line of notes.txt", json!("alpha beta")),
        ("what's the last line of notes.txt?", json!("delta")),
        ("print the second line of notes.txt", json!("")),
        ("show me the 3rd line in notes.txt", json!("gamma")),
        ("line 4 of notes.txt", json!("delta")),
    ] {
        right(home.path(), goal, &[], want);
    }
    let (code, _, err) = run(home.path(), "show line 5 of notes.txt", &[]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("the list has 4 items, no item at position 5"),
        "{err}"
    );
}

#[test]
fn a_story_total_is_added_up_and_a_wrong_sum_refused() {
    let h = home(false);
    // The instances' calls, then their sum (or mean), run end to end.
    right(
        h.path(),
        "The first text is 'a b'. The second text is 'c d e'. What is the total number of words of the two texts?",
        &[],
        json!(5),
    );
    right(
        h.path(),
        "What is the total number of words in three texts, where the first text is 'a b', the second text is 'c d e', and the third text is 'f'?",
        &[],
        json!(6),
    );
    right(
        h.path(),
        "The first text is 'a b'. The second text is 'c d e f'. What is the average number of words of the two texts?",
        &[],
        json!(3),
    );
    // Quoted text is no clause's end: "'a; b'" stays itself.
    right(
        h.path(),
        "The first text is 'a; b'. The second text is 'c. d e'. What is the total number of words of the two texts?",
        &[],
        json!(5),
    );
    // A sum of maxima is no maximum; "both" of three is not said.
    refused(
        h.path(),
        "The first list is [3, 9, 4]. The second list is [7, 1]. What is the largest item of the two lists combined?",
        "\"largest item\" is not what ccos.data.max computes",
    );
    refused(
        h.path(),
        "Count the words of both texts: the first text is 'a b', the second text is 'c d e', the third text is 'f'.",
        "third text",
    );
}

/// A premise is read with the one request after it; with two requests
/// (whose "it"?), or a value of its kind in the request, it is refused.
#[test]
fn a_premise_is_read_with_its_request_and_refused_before_two() {
    let h = home(false);
    right(
        h.path(),
        "Given the text 'hello big world', count its words",
        &[],
        json!(3),
    );
    // A value of the premise's kind in the request: which is meant where
    // is not said.
    refused(h.path(), "Given 3, add 4 to it", "s1 \"Given 3\"");
    refused(
        h.path(),
        "Given the text 'hello world', count its words and then count its lines",
        "s1 \"Given the text 'hello world'\": no capability serves it",
    );
}

/// A nationality is a kind ("an *Italian* restaurant" is a cuisine, never
/// a restaurant's name, and no genre); a work's title is every word of it
/// ("the movie *Read My Lips*"); a name a preposition places is no title
/// ("*on Apple TV*" is the network). Attack trial: each was a wrong plan
/// with exit 0.
#[test]
fn kinds_titles_and_placed_names_go_where_they_say() {
    let server = LoopbackServer::start(|req| {
        Reply::json(200, &json!({"path": req.path, "query": req.query}))
    });
    let home = home(true);
    let doc = json!({
        "openapi": "3.0.3",
        "info": {"title": "media", "version": "1"},
        "servers": [{"url": server.url("")}],
        "paths": {
            "/restaurants": get_op("searchRestaurants", "Search restaurants", json!([
                {"name": "city", "required": true, "description": "City name", "schema": {"type": "string"}},
                {"name": "cuisine", "description": "Cuisine, e.g. Italian, Japanese, Thai", "schema": {"type": "string"}},
                {"name": "restaurant_name", "description": "Restaurant name (partial match)", "schema": {"type": "string"}}
            ])),
            "/shows": get_op("searchShows", "Search TV shows by title, genre or network", json!([
                {"name": "title", "description": "Show title", "schema": {"type": "string"}},
                {"name": "genre", "description": "Genre, e.g. drama, comedy", "schema": {"type": "string"}},
                {"name": "network", "description": "Network or channel, e.g. HBO, BBC", "schema": {"type": "string"}}
            ])),
            "/movies": get_op("getMovieDetails", "Get the details of a movie", json!([
                {"name": "title", "required": true, "description": "Movie title", "schema": {"type": "string"}},
                {"name": "year", "description": "Release year", "schema": {"type": "integer"}}
            ])),
            "/trending": get_op("getTrendingMovies", "Trending movies", json!([
                {"name": "genre", "description": "Genre", "schema": {"type": "string"}}
            ]))
        }
    });
    import_inline(home.path(), "media", &doc);
    let r = sent(
        home.path(),
        &server,
        "find Italian restaurants in Rome",
        "/restaurants",
    );
    assert_eq!(decoded(&r, "cuisine").as_deref(), Some("Italian"));
    assert_eq!(decoded(&r, "city").as_deref(), Some("Rome"));
    assert_eq!(decoded(&r, "restaurant_name"), None);
    let r = sent(
        home.path(),
        &server,
        "details of the movie Read My Lips",
        "/movies",
    );
    assert_eq!(decoded(&r, "title").as_deref(), Some("Read My Lips"));
    let r = sent(
        home.path(),
        &server,
        "find the show Slow Horses on Apple TV",
        "/shows",
    );
    assert_eq!(decoded(&r, "title").as_deref(), Some("Slow Horses"));
    assert_eq!(decoded(&r, "network").as_deref(), Some("Apple TV"));
    for goal in ["trending French movies", "shows with Bryan Cranston"] {
        let (code, value, err) = run(home.path(), goal, &[]);
        assert_eq!(code, Some(4), "{goal}: {value} {err}");
    }
}

/// Ordinary phrasings a new user typed over the built-ins (helper trial,
/// 265 goals): each was refused, or (the asks, the echo) answered wrong
/// with exit 0.
#[test]
fn everyday_phrasings_of_built_in_goals() {
    let home = home(false);
    write(
        &home.path().join("work"),
        "numbers.txt",
        "12\n7\n42\n3\n25\n",
    );
    write(
        &home.path().join("work"),
        "emails.txt",
        "write to alice@example.com or bob@test.org\n",
    );
    // The kind of text a pattern finds names what to find.
    right(
        home.path(),
        "find the email addresses in emails.txt",
        &[],
        json!(["alice@example.com", "bob@test.org"]),
    );
    // A message keeps its indefinite article ("b c" was echoed).
    right(home.path(), "echo a b c", &[], json!("a b c"));
    // A request after the question is done, never folded into it.
    right(
        home.path(),
        "ask me for a word and reverse it",
        &["--answer", "stressed"],
        json!("desserts"),
    );
    refused(
        home.path(),
        "ask for my favorite color and shout it back in uppercase",
        "shout",
    );
    // What to echo is a thing's value, not its name.
    refused(
        home.path(),
        "echo the current time",
        "echo the current time",
    );
    right(
        home.path(),
        "say the build is green",
        &[],
        json!("the build is green"),
    );
    // Greetings, courtesy and framing words ask for nothing.
    right(
        home.path(),
        "hey, could you add 40 and 2 for me?",
        &[],
        json!(42),
    );
    right(
        home.path(),
        "can you echo back \"testing 123\"",
        &[],
        json!("testing 123"),
    );
    right(
        home.path(),
        "print the message 'ccos works'",
        &[],
        json!("ccos works"),
    );
    right(home.path(), "lines.txt word count please", &[], json!(3));
    // Never a cut inside a quoted text (attack trial).
    right(home.path(), "echo 'hi, thanks'", &[], json!("hi, thanks"));
    // A word named as a word is the text.
    right(
        home.path(),
        "uppercase the word banana",
        &[],
        json!("BANANA"),
    );
    // An ordinal picks one item; a count from an end is no position, and
    // a position counted from something else is not guessed.
    right(
        home.path(),
        "what's the 4th number in numbers.txt",
        &[],
        json!(3),
    );
    right(
        home.path(),
        "what is the last number in numbers.txt",
        &[],
        json!(25),
    );
    right(
        home.path(),
        "what is the second one in numbers.txt?",
        &[],
        json!(7),
    );
    right(
        home.path(),
        "which is the second one in [10, 20, 30]?",
        &[],
        json!(20),
    );
    refused(home.path(), "what's the 10th Fibonacci number?", "number");
    // A capital "A" opening a message is its first word (attack trial:
    // "B C" was echoed).
    right(home.path(), "echo A B C", &[], json!("A B C"));
    // An answer naming a file is read before its text is used (the
    // answer's own lines were counted).
    right(
        home.path(),
        "ask me for a file and count its lines",
        &["--answer", "numbers.txt"],
        json!(5),
    );
    // A yes-or-no question does not decide what runs: refused, not
    // sorted whatever the answer.
    refused(
        home.path(),
        "ask me if I want to continue and then sort numbers.txt",
        "yes-or-no",
    );
    // Every thing counted is counted, or the goal is refused.
    refused(
        home.path(),
        "count the words and letters in 'hi there'",
        "letters",
    );
    // The files of a folder, its subfolders not counted.
    std::fs::create_dir_all(home.path().join("work/docs/sub")).unwrap();
    write(&home.path().join("work/docs"), "a.txt", "a");
    write(&home.path().join("work/docs"), "b.md", "b");
    right(home.path(), "how many files are in docs", &[], json!(2));
    right(
        home.path(),
        "how many files does the docs folder have",
        &[],
        json!(2),
    );
    // Words that introduce a message elsewhere are words when echoed.
    right(
        home.path(),
        "echo reading is fun",
        &[],
        json!("reading is fun"),
    );
    // Any wording of a yes-or-no question, and an answer naming a file
    // used as text where no file is read (attack trials: each ran).
    for goal in [
        "ask me: do you want to continue? then sort numbers.txt",
        "ask for my approval and then sort numbers.txt",
        "ask me for a file and reverse its contents",
    ] {
        let (code, value, err) = run(home.path(), goal, &["--answer", "numbers.txt"]);
        assert_eq!(code, Some(4), "{goal} gave {value}: {err}");
    }
    for goal in [
        "last but one number in numbers.txt",
        "the third number from the end of numbers.txt",
        "the 2nd smallest number in numbers.txt",
        "3rd number in numbers.txt and the 5th",
        "give me the last 2 items of 5, 6, 7, 8",
    ] {
        let (code, value, err) = run(home.path(), goal, &[]);
        assert_ne!(code, Some(0), "{goal} gave {value}: {err}");
    }
}

/// Phrasings new users typed that were refused although a built-in serves
/// them: a contraction, "contain" in a count, "into words", a goal that is
/// a noun phrase (new-user trial, session 32).
#[test]
fn contractions_contain_words_and_noun_phrases() {
    let home = home(false);
    let work = home.path().join("work");
    write(&work, "numbers.txt", "12\n7\n42\n3\n25\n");
    for (goal, want) in [
        (
            r#"split "one two three" into words"#,
            json!(["one", "two", "three"]),
        ),
        (
            "I'd like to see what's inside lines.txt",
            json!("alpha beta\ngamma\n"),
        ),
        ("how many words does README.md contain?", json!(5)),
        (
            "Could you please tell me how many words lines.txt contains?",
            json!(3),
        ),
        ("the first 3 numbers of numbers.txt", json!([12, 7, 42])),
        ("the size of data.json", json!(21)),
    ] {
        right(home.path(), goal, &[], want);
    }
    // The words of a stated text or a file, found first, fill a list.
    write(&work, "words.txt", "pear apple\nfig apple\n");
    for (goal, want) in [
        (
            r#"sort the words "pear apple fig""#,
            json!(["apple", "fig", "pear"]),
        ),
        (
            r#"remove duplicate words from "a b a c b""#,
            json!(["a", "b", "c"]),
        ),
        (
            r#"what is the last word of "one two three""#,
            json!("three"),
        ),
        (r#"join the words of "x y z" with dashes"#, json!("x-y-z")),
        (
            "list the distinct words in words.txt",
            json!(["pear", "apple", "fig"]),
        ),
    ] {
        right(home.path(), goal, &[], want);
    }
    // Two positions are no one position to ask the user for.
    refused(
        home.path(),
        "what is the 2nd number in numbers.txt plus the 5th",
        "ordinals",
    );
    // Split into words: runs of letters, the spaces and punctuation
    // around them aside (a split on " " gave empty items).
    for (goal, want) in [
        (
            r#"split "one two  three" into words"#,
            json!(["one", "two", "three"]),
        ),
        (
            r#"split "red, green, don't" into words"#,
            json!(["red", "green", "don't"]),
        ),
        (
            "split words.txt into words",
            json!(["pear", "apple", "fig", "apple"]),
        ),
    ] {
        right(home.path(), goal, &[], want);
    }
    // Compared by size, words would be compared as texts: refused.
    refused(
        home.path(),
        "what is the biggest word in 'apple fig banana'",
        "biggest",
    );
    refused(
        home.path(),
        "what is the longest word in words.txt",
        "longest",
    );
    // Attack trial of the above: statements with a contraction, what
    // ought to be, a singular noun phrase over a list, the words of a
    // count, a reason, and a request joined to a statement.
    for (goal, names) in [
        ("I'm writing 'hello' to out.txt", "states facts"),
        ("how many words should lines.txt contain", "contain"),
        ("the total of the numbers in numbers.txt", "total"),
        (
            "count the lines of lines.txt and then count its words",
            "written out",
        ),
        ("I would like to know why data.json is so big", "why"),
        (
            "The numbers in numbers.txt sorted, I also want them counted",
            "states facts",
        ),
    ] {
        refused(home.path(), goal, names);
    }
    for (goal, names) in [
        (
            "how many lines does lines.txt have and how many words does it have",
            "written out",
        ),
        ("count each word in lines.txt", "each"),
        ("is lines.txt a file", "yes or no"),
        (
            "I'd like to know how the size of data.json is computed",
            "how the",
        ),
    ] {
        refused(home.path(), goal, names);
    }
    assert!(!work.join("out.txt").exists());
    right(
        home.path(),
        "I'd like to know whether lines.txt exists",
        &[],
        json!(true),
    );
    right(
        home.path(),
        "split 'cat dog' into a list of words",
        &[],
        json!(["cat", "dog"]),
    );
    right(
        home.path(),
        "We also need the size of data.json",
        &[],
        json!(21),
    );
    // A noun phrase of unknown words is still refused, and "contain"
    // that restricts is no count of what a file has.
    refused(home.path(), "the cat sat on the mat", "mat");
    refused(
        home.path(),
        "how many lines contain 'gamma' in lines.txt",
        "contain",
    );
}

/// Arithmetic on values other requests find (new-user trial: "add 5 to
/// the largest number in numbers.txt", "multiply the number of lines in
/// notes.txt by 10" were refused although each part is served): each
/// operand naming a quantity is found first, shortened forms written
/// out; an operand that is no number is refused, not computed with.
#[test]
fn arithmetic_on_values_found_first() {
    let home = home(false);
    let work = home.path().join("work");
    write(&work, "numbers.txt", "12\n7\n42\n3\n25\n7\n18\n");
    write(&work, "notes.txt", "one two three\nfour five\n");
    std::fs::create_dir_all(work.join("docs")).unwrap();
    write(&work.join("docs"), "a.txt", "alpha\n");
    for (goal, want) in [
        ("add 5 to the largest number in numbers.txt", json!(47)),
        (
            "what is the smallest number in numbers.txt plus 1",
            json!(4),
        ),
        ("double the maximum of numbers.txt", json!(84)),
        ("multiply the number of lines in notes.txt by 10", json!(20)),
        (
            "difference between the largest and smallest number in numbers.txt",
            json!(39),
        ),
        (
            "subtract the smallest number in numbers.txt from the largest",
            json!(39),
        ),
        ("add the first and last numbers in numbers.txt", json!(30)),
        (
            "divide the word count of notes.txt by its line count",
            json!(2.5),
        ),
    ] {
        right(home.path(), goal, &[], want);
    }
    // A file's record or a folder's listing is no number; nothing named
    // is a quantity, or part of it has no capability: refused.
    for (goal, names) in [
        ("add 5 to the largest file in docs", "largest"),
        ("add the contents of notes.txt to 3", "notes.txt"),
        ("subtract 1 from the largest", "largest"),
        ("add 2 to the population of Peru", "population"),
    ] {
        refused(home.path(), goal, names);
    }
}

/// What the operands' own plans got wrong when an attacker tried the
/// arithmetic on them (each also wrong asked alone): a qualifier of the
/// numbers dropped, a key of a JSON file read as the file's size or its
/// entries counted, a verb taken for the file's name, a count of two
/// things answered with one.
#[test]
fn operands_are_what_the_goal_names_or_refused() {
    let home = home(false);
    let work = home.path().join("work");
    write(&work, "numbers.txt", "3\n17\n-4\n9\n12\n");
    write(&work, "double.txt", "1\n4\n2\n");
    write(&work, "notes.txt", "one two three\nfour five\n");
    write(&work, "box.json", r#"{"size": 7, "height": 12}"#);
    write(&work, "data2.json", r#"{"count": 9, "a": 1, "b": 2}"#);
    write(&work, "counts.csv", "item,count\npen,5\n");
    for (goal, want) in [
        ("the size in box.json plus 1", json!(8)),
        ("the count in data2.json plus 1", json!(10)),
        ("double the largest number in double.txt", json!(8)),
        ("the third number in numbers.txt times 2", json!(-8)),
    ] {
        right(home.path(), goal, &[], want);
    }
    for (goal, names) in [
        ("the smallest positive number in numbers.txt", "positive"),
        (
            "the smallest positive number in numbers.txt plus 1",
            "positive",
        ),
        ("the largest number but one in numbers.txt", "but one"),
        ("the count in counts.csv plus 1", "count"),
        ("how many words and lines does notes.txt have", "words"),
    ] {
        refused(home.path(), goal, names);
    }
}

/// A request on a part of a file (new-user trial: "uppercase the first
/// line of notes.txt", "how many words are in the last line of notes.txt"
/// were refused, though "get the first line of notes.txt, then uppercase
/// it" ran): the part is found first. Never for a request that would
/// change something: what "it" is decides what a change changes.
#[test]
fn a_part_of_a_file_is_found_first() {
    let home = home(false);
    let work = home.path().join("work");
    write(&work, "notes.txt", "one two three\nfour five\n");
    for (goal, want) in [
        (
            "uppercase the first line of notes.txt",
            json!("ONE TWO THREE"),
        ),
        (
            "how many words are in the last line of notes.txt?",
            json!(2),
        ),
        ("reverse the last line of notes.txt", json!("evif ruof")),
    ] {
        right(home.path(), goal, &[], want);
    }
    // More said before the part than a verb whose object says what it
    // does is never dropped; a verb of counting or deleting is done only
    // by a capability that says it does it (attack trial: "count the
    // first 3 numbers" gave the numbers, "delete the lines" listed them).
    for (goal, names) in [
        ("delete the first line of notes.txt", "delete"),
        (
            "uppercase everything but the first line of notes.txt",
            "everything",
        ),
        ("split the first line of notes.txt", "split"),
        ("delete the lines of notes.txt", "delete"),
        ("total the first 2 lines of notes.txt", "total"),
    ] {
        refused(home.path(), goal, names);
    }
    right(
        home.path(),
        "count the first 2 lines of notes.txt",
        &[],
        json!(2),
    );
    // "How many times …" of a number it returns says it counts.
    right(
        home.path(),
        "count occurrences of \"the\" in \"the cat and the hat\"",
        &[],
        json!(2),
    );
    assert_eq!(
        std::fs::read_to_string(work.join("notes.txt")).unwrap(),
        "one two three\nfour five\n"
    );
}
