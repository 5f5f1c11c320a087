use std::sync::Arc;

use rtfs::Value;

use super::*;
use crate::prompt::ScriptedAnswers;
use ccos_testkit::http::{LoopbackServer as Server, Reply};

fn v(src: &str) -> Value {
    rtfs::eval_str(src).unwrap()
}

fn mp_with(config: BuiltinConfig) -> Marketplace {
    let mp = Marketplace::new().unwrap();
    install(&mp, config).unwrap();
    mp
}

fn mp() -> Marketplace {
    mp_with(BuiltinConfig {
        prompter: Arc::new(ScriptedAnswers::new()),
        ..BuiltinConfig::default()
    })
}

async fn call(mp: &Marketplace, id: &str, args: &str) -> Result<String, CallError> {
    let args = match v(&format!("[{args}]")) {
        Value::Vector(a) => a.to_vec(),
        _ => unreachable!(),
    };
    mp.call(id, args).await.map(|v| v.to_string())
}

#[test]
fn manifests_are_well_formed() {
    let ms = manifests();
    assert!(ms.len() >= 28);
    for m in &ms {
        crate::ids::validate_id(&m.id).unwrap();
        assert_eq!(m.trust_tier, crate::TrustTier::System);
        assert!(
            m.local && !m.effects.is_empty() && m.output_schema.is_some(),
            "{}",
            m.id
        );
        assert!(!m.examples.is_empty());
    }
    assert!(
        ms.iter()
            .find(|m| m.id == "ccos.math.add")
            .unwrap()
            .is_positional()
    );
    assert!(ms.windows(2).all(|w| w[0].id < w[1].id));
}

#[tokio::test]
async fn math_follows_rtfs_semantics() {
    let mp = mp();
    assert_eq!(call(&mp, "ccos.math.add", "2 3").await.unwrap(), "5");
    assert_eq!(call(&mp, "ccos.math.mul", "5 4").await.unwrap(), "20");
    assert_eq!(call(&mp, "ccos.math.sub", "2 3.5").await.unwrap(), "-1.5");
    assert_eq!(call(&mp, "ccos.math.div", "10 4").await.unwrap(), "2.5");
    assert_eq!(call(&mp, "ccos.math.div", "12 4").await.unwrap(), "3");
    assert!(
        call(&mp, "ccos.math.div", "1 0")
            .await
            .unwrap_err()
            .to_string()
            .contains("division by zero")
    );
    assert!(
        call(&mp, "ccos.math.add", "9223372036854775807 1")
            .await
            .unwrap_err()
            .to_string()
            .contains("overflow")
    );
    assert!(
        call(&mp, "ccos.math.div", "-9223372036854775808 -1")
            .await
            .is_err()
    );
    assert!(matches!(
        call(&mp, "ccos.math.add", "1").await,
        Err(CallError::InvalidArguments { .. })
    ));
    assert!(matches!(
        call(&mp, "ccos.math.add", "1 \"x\"").await,
        Err(CallError::InvalidArguments { .. })
    ));
}

#[tokio::test]
async fn text_builtins() {
    let mp = mp();
    assert_eq!(
        call(&mp, "ccos.echo", r#"{:message "hi"}"#).await.unwrap(),
        "\"hi\""
    );
    assert!(matches!(
        call(&mp, "ccos.echo", r#"{:msg "hi"}"#).await,
        Err(CallError::InvalidArguments { .. })
    ));
    assert!(matches!(
        call(&mp, "ccos.echo", r#""hi""#).await,
        Err(CallError::InvalidArguments { .. })
    ));
    assert_eq!(
        call(&mp, "ccos.text.count_words", r#"{:text " a  b\nc "}"#)
            .await
            .unwrap(),
        "3"
    );
    assert_eq!(
        call(&mp, "ccos.text.count_lines", r#"{:text "a\nb\n"}"#)
            .await
            .unwrap(),
        "2"
    );
    assert_eq!(
        call(&mp, "ccos.text.count_chars", r#"{:text "héllo"}"#)
            .await
            .unwrap(),
        "5"
    );
    assert!(
        call(&mp, "ccos.text.count_chars", "{:text 3}")
            .await
            .is_err()
    );
    assert_eq!(
        call(&mp, "ccos.text.split", r#"{:text "a,b,,c" :separator ","}"#)
            .await
            .unwrap(),
        r#"["a" "b" "" "c"]"#
    );
    // Into lines: the final newline ends the last line (no empty one);
    // an empty line inside stays.
    assert_eq!(
        call(
            &mp,
            "ccos.text.split",
            "{:text \"a\n\nb\r\n\" :separator \"\n\"}"
        )
        .await
        .unwrap(),
        r#"["a" "" "b"]"#
    );
    assert_eq!(
        call(&mp, "ccos.data.count", "{:items [1 2 3]}")
            .await
            .unwrap(),
        "3"
    );
    assert_eq!(
        call(&mp, "ccos.data.count", "{:items {:a 1}}")
            .await
            .unwrap(),
        "1"
    );
    assert!(call(&mp, "ccos.data.count", "{:items 3}").await.is_err());
    // Standalone numbers, signs at the start of a word only: a date, a
    // version and a unit-glued number are none.
    assert_eq!(
        call(
            &mp,
            "ccos.text.numbers",
            r#"{:text "3\n-1.5\n+7 x 42\nv2 5cm 2026-11-28 1,2"}"#
        )
        .await
        .unwrap(),
        "[3 -1.5 7 42 1 2]"
    );
    // A sign before a currency, the Unicode minus; "--7" and a version
    // are no numbers (attack trial).
    assert_eq!(
        call(
            &mp,
            "ccos.text.numbers",
            "{:text \"-$40 \u{2212}5 --7 1.2.3 $3.50 (800) 10:30 28/11/2026\"}"
        )
        .await
        .unwrap(),
        "[-40 -5 3.5 800]"
    );
    // A decimal without its zero and an exponent are numbers (attack
    // trial: ".5" and "1e3" were skipped, so the largest was wrong).
    assert_eq!(
        call(
            &mp,
            "ccos.text.numbers",
            r#"{:text ".5 -.25 0.25 1e3 2.5E-1 5e 3e2x"}"#
        )
        .await
        .unwrap(),
        "[0.5 -0.25 0.25 1000.0 0.25]"
    );
    // A digit group, a code or a fraction is refused, not split ("1,000"
    // gave 1 and 0; "3/4 cup" gave nothing, and the smallest number was
    // another).
    for text in [
        "99999999999999999999",
        "1,000",
        "1 000 000",
        "code 007",
        "use 3/4 cup and 2 eggs",
        "half is 1/2.",
    ] {
        assert!(
            call(&mp, "ccos.text.numbers", &format!("{{:text {text:?}}}"))
                .await
                .is_err(),
            "{text}"
        );
    }
    assert_eq!(
        call(&mp, "ccos.text.lines", r#"{:text "a b\r\nc\n\nd\n"}"#)
            .await
            .unwrap(),
        r#"["a b" "c" "" "d"]"#
    );
    assert_eq!(
        call(
            &mp,
            "ccos.text.join",
            r#"{:items ["a" 1 :k] :separator "-"}"#
        )
        .await
        .unwrap(),
        r#""a-1-:k""#
    );
    assert!(
        call(&mp, "ccos.text.join", r#"{:items "ab"}"#)
            .await
            .is_err()
    );
    assert_eq!(
        call(&mp, "ccos.text.upper", r#"{:text "abc"}"#)
            .await
            .unwrap(),
        "\"ABC\""
    );
    assert_eq!(
        call(&mp, "ccos.text.lower", r#"{:text "AbC"}"#)
            .await
            .unwrap(),
        "\"abc\""
    );
    assert_eq!(
        call(
            &mp,
            "ccos.text.regex_find",
            r#"{:text "a1b22c333" :pattern "[0-9]+"}"#
        )
        .await
        .unwrap(),
        r#"["1" "22" "333"]"#
    );
    let e = call(&mp, "ccos.text.regex_find", r#"{:text "a" :pattern "("}"#)
        .await
        .unwrap_err();
    assert!(e.to_string().contains("invalid regex"), "{e}");
}

#[tokio::test]
async fn json_and_data_builtins() {
    let mp = mp();
    assert_eq!(
        call(&mp, "ccos.json.parse", r#"{:text "{\"a\": [1, 2]}"}"#)
            .await
            .unwrap(),
        "{:a [1 2]}"
    );
    let e = call(&mp, "ccos.json.parse", r#"{:text "{oops"}"#)
        .await
        .unwrap_err();
    assert!(e.to_string().contains("invalid JSON"), "{e}");
    assert_eq!(
        call(&mp, "ccos.json.format", "{:value {:a [1 nil]}}")
            .await
            .unwrap(),
        r#""{\"a\":[1,null]}""#
    );
    assert!(
        call(&mp, "ccos.json.format", "{:value {:a 1} :pretty true}")
            .await
            .unwrap()
            .contains("\\n")
    );
    assert!(
        call(&mp, "ccos.json.format", "{:value 1 :pretty 3}")
            .await
            .is_err()
    );
    let items = r#"[{:n 2 :t "b"} {:n 1 :t "a"} {:n 3 :t "b"}]"#;
    assert_eq!(
        call(
            &mp,
            "ccos.data.filter",
            &format!(r#"{{:items {items} :key "t" :equals "b"}}"#)
        )
        .await
        .unwrap(),
        r#"[{:n 2 :t "b"} {:n 3 :t "b"}]"#
    );
    assert!(
        call(&mp, "ccos.data.filter", r#"{:items [1] :key "t"}"#)
            .await
            .is_err()
    );
    assert_eq!(
        call(
            &mp,
            "ccos.data.sort",
            &format!("{{:items {items} :key :n :descending true}}")
        )
        .await
        .unwrap(),
        r#"[{:n 3 :t "b"} {:n 2 :t "b"} {:n 1 :t "a"}]"#
    );
    assert_eq!(
        call(&mp, "ccos.data.sort", "{:items [3 1 2]}")
            .await
            .unwrap(),
        "[1 2 3]"
    );
    assert_eq!(
        call(&mp, "ccos.data.take", "{:items [1 2 3] :count 2}")
            .await
            .unwrap(),
        "[1 2]"
    );
    assert!(
        call(&mp, "ccos.data.take", "{:items [1 2 3] :count -1}")
            .await
            .is_err()
    );
}

#[tokio::test]
async fn time_and_user() {
    let mp = mp_with(BuiltinConfig {
        prompter: Arc::new(ScriptedAnswers::new().with_named("City?", "Paris")),
        ..BuiltinConfig::default()
    });
    let now = call(&mp, "ccos.time.now", "{}").await.unwrap();
    assert!(
        time::OffsetDateTime::parse(
            now.trim_matches('"'),
            &time::format_description::well_known::Rfc3339
        )
        .is_ok(),
        "{now}"
    );
    assert_eq!(call(&mp, "ccos.time.sleep", "{:ms 5}").await.unwrap(), "5");
    assert!(call(&mp, "ccos.time.sleep", "{:ms 600001}").await.is_err());
    assert_eq!(
        call(&mp, "ccos.user.ask", r#"{:prompt "City?"}"#)
            .await
            .unwrap(),
        "\"Paris\""
    );
    let e = call(&mp, "ccos.user.ask", r#"{:prompt "Age?"}"#)
        .await
        .unwrap_err();
    assert!(matches!(e, CallError::Refused { .. }));
    assert!(
        e.to_string()
            .contains("no answer for prompt \"Age?\"; pass --answer or --answers FILE"),
        "{e}"
    );
}

#[tokio::test]
async fn files_are_confined() {
    let base = tempfile::tempdir().unwrap();
    let root = base.path().join("root");
    let outside = base.path().join("outside");
    std::fs::create_dir_all(root.join("sub")).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("secret.txt"), "secret").unwrap();
    std::fs::write(root.join("a.txt"), "hello").unwrap();
    let mp = mp_with(BuiltinConfig {
        file_roots: vec![root.clone()],
        prompter: Arc::new(ScriptedAnswers::new()),
        ..BuiltinConfig::default()
    });
    assert_eq!(
        call(&mp, "ccos.file.read", r#"{:path "a.txt"}"#)
            .await
            .unwrap(),
        "\"hello\""
    );
    call(
        &mp,
        "ccos.file.write",
        r#"{:path "sub/b.txt" :content "x"}"#,
    )
    .await
    .unwrap();
    call(
        &mp,
        "ccos.file.append",
        r#"{:path "sub/b.txt" :content "y"}"#,
    )
    .await
    .unwrap();
    assert_eq!(
        call(&mp, "ccos.file.read", r#"{:path "sub/../sub/b.txt"}"#)
            .await
            .unwrap(),
        "\"xy\""
    );
    assert_eq!(
        call(&mp, "ccos.file.list", r#"{:path "."}"#).await.unwrap(),
        r#"[{:name "a.txt" :size 5 :type "file"} {:name "sub" :size 4096 :type "dir"}]"#.replace(
            "4096",
            &std::fs::metadata(root.join("sub"))
                .unwrap()
                .len()
                .to_string()
        )
    );
    let st = call(&mp, "ccos.file.stat", r#"{:path "a.txt"}"#)
        .await
        .unwrap();
    assert!(
        st.contains(":exists true") && st.contains(":size 5"),
        "{st}"
    );
    assert!(
        call(&mp, "ccos.file.stat", r#"{:path "nope.txt"}"#)
            .await
            .unwrap()
            .contains(":exists false")
    );
    assert!(
        call(&mp, "ccos.file.read", r#"{:path "nope.txt"}"#)
            .await
            .unwrap_err()
            .to_string()
            .contains("does not exist")
    );
    assert!(
        call(&mp, "ccos.file.read", r#"{:path "sub"}"#)
            .await
            .is_err()
    );

    // Escapes: `..`, absolute paths, symlinks out (read and write).
    let secret = outside.join("secret.txt").display().to_string();
    std::os::unix::fs::symlink(&outside, root.join("link")).unwrap();
    std::os::unix::fs::symlink(outside.join("secret.txt"), root.join("s.txt")).unwrap();
    for (id, args) in [
        (
            "ccos.file.read",
            r#"{:path "../outside/secret.txt"}"#.to_string(),
        ),
        ("ccos.file.read", format!("{{:path {secret:?}}}")),
        ("ccos.file.read", r#"{:path "link/secret.txt"}"#.to_string()),
        ("ccos.file.read", r#"{:path "s.txt"}"#.to_string()),
        (
            "ccos.file.read",
            r#"{:path "../outside/missing.txt"}"#.to_string(),
        ),
        ("ccos.file.list", r#"{:path ".."}"#.to_string()),
        ("ccos.file.stat", r#"{:path "/etc/passwd"}"#.to_string()),
        (
            "ccos.file.write",
            r#"{:path "../evil.txt" :content "x"}"#.to_string(),
        ),
        (
            "ccos.file.write",
            r#"{:path "link/new.txt" :content "x"}"#.to_string(),
        ),
        (
            "ccos.file.write",
            r#"{:path "s.txt" :content "x"}"#.to_string(),
        ),
        (
            "ccos.file.append",
            r#"{:path "../nodir/x.txt" :content "x"}"#.to_string(),
        ),
    ] {
        let e = call(&mp, id, &args).await.unwrap_err();
        assert!(matches!(e, CallError::Denied { .. }), "{id} {args}: {e}");
    }
    assert_eq!(
        std::fs::read_to_string(outside.join("secret.txt")).unwrap(),
        "secret"
    );
    assert!(!base.path().join("evil.txt").exists());
    assert!(!outside.join("new.txt").exists());
    assert!(
        call(&mp, "ccos.file.write", r#"{:path "x.txt"}"#)
            .await
            .is_err()
    );
}

#[tokio::test]
async fn read_size_is_capped() {
    let root = tempfile::tempdir().unwrap();
    let f = std::fs::File::create(root.path().join("big.bin")).unwrap();
    f.set_len(MAX_READ_BYTES + 1).unwrap();
    let mp = mp_with(BuiltinConfig {
        file_roots: vec![root.path().to_path_buf()],
        prompter: Arc::new(ScriptedAnswers::new()),
        ..BuiltinConfig::default()
    });
    let e = call(&mp, "ccos.file.read", r#"{:path "big.bin"}"#)
        .await
        .unwrap_err();
    assert!(e.to_string().contains("read limit"), "{e}");
}

#[tokio::test]
async fn http_against_a_local_server() {
    let server = Server::start(|req| {
        let reply = match req.target().as_str() {
            "/json" => Reply::typed(200, "application/json", r#"{"ok": true, "n": [1, 2]}"#),
            "/echo" => Reply::typed(
                201,
                "text/plain",
                format!(
                    "{} {}",
                    req.header("content-type").unwrap_or(""),
                    req.text()
                ),
            ),
            _ => Reply::typed(404, "text/plain", "not here"),
        };
        reply.with_header("x-test", "yes")
    });
    let host = "127.0.0.1".to_string();
    let mp = mp_with(BuiltinConfig {
        http_allow_hosts: vec![host],
        prompter: Arc::new(ScriptedAnswers::new()),
        ..BuiltinConfig::default()
    });
    let r = call(
        &mp,
        "ccos.http.get",
        &format!(
            r#"{{:url "{}" :headers {{"X-A" "1"}}}}"#,
            server.url("/json")
        ),
    )
    .await
    .unwrap();
    assert!(
        r.contains(":body {:n [1 2] :ok true}") && r.contains(":status 200"),
        "{r}"
    );
    assert!(r.contains(":x-test \"yes\""), "{r}");
    assert_eq!(server.last().header("x-a"), Some("1"));
    let r = call(
        &mp,
        "ccos.http.post",
        &format!(r#"{{:url "{}" :body {{:a 1}}}}"#, server.url("/echo")),
    )
    .await
    .unwrap();
    assert!(
        r.contains(r#":body "application/json {\"a\":1}""#) && r.contains(":status 201"),
        "{r}"
    );
    let r = call(
        &mp,
        "ccos.http.get",
        &format!(r#"{{:url "{}"}}"#, server.url("/missing")),
    )
    .await
    .unwrap();
    assert!(r.contains(":status 404"), "{r}");
    assert!(matches!(
        call(&mp, "ccos.http.get", r#"{:url "not a url"}"#).await,
        Err(CallError::InvalidArguments { .. })
    ));

    // Not allow-listed: refused before any connection.
    let before = server.requests().len();
    let strict = mp_with(BuiltinConfig {
        prompter: Arc::new(ScriptedAnswers::new()),
        ..BuiltinConfig::default()
    });
    let e = call(
        &strict,
        "ccos.http.get",
        &format!(r#"{{:url "{}"}}"#, server.url("/json")),
    )
    .await
    .unwrap_err();
    assert!(
        matches!(e, CallError::Denied { .. }) && e.to_string().contains("allow-list"),
        "{e}"
    );
    let other_port = mp_with(BuiltinConfig {
        http_allow_hosts: vec!["127.0.0.1:1".into()],
        prompter: Arc::new(ScriptedAnswers::new()),
        ..BuiltinConfig::default()
    });
    assert!(matches!(
        call(
            &other_port,
            "ccos.http.get",
            &format!(r#"{{:url "{}"}}"#, server.url("/json"))
        )
        .await,
        Err(CallError::Denied { .. })
    ));
    assert_eq!(server.requests().len(), before);
}

/// A redirect from an allow-listed host to one that is not is refused at
/// that hop: the request (and a POST body) never reaches the other host.
#[tokio::test]
async fn redirects_are_checked_against_the_allow_list_at_every_hop() {
    let elsewhere = Server::start(|_| Reply::text(200, "you should never see this"));
    let target = elsewhere.url("/steal");
    let allowed = Server::start(move |req| match req.path.as_str() {
        "/same" => Reply::redirect(302, "/final"),
        "/final" => Reply::text(200, "arrived"),
        "/loop" => Reply::redirect(302, "/loop"),
        _ => Reply::redirect(307, target.clone()),
    });
    // Only the first server's port is allowed: the second listens on
    // another port of the same host, which the allow-list does not admit.
    let host = format!("127.0.0.1:{}", allowed.addr().port());
    let mp = mp_with(BuiltinConfig {
        http_allow_hosts: vec![host],
        prompter: Arc::new(ScriptedAnswers::new()),
        ..BuiltinConfig::default()
    });
    let r = call(
        &mp,
        "ccos.http.get",
        &format!(r#"{{:url "{}"}}"#, allowed.url("/same")),
    )
    .await
    .unwrap();
    assert!(r.contains("arrived"), "{r}");
    for id in ["ccos.http.get", "ccos.http.post"] {
        let e = call(
            &mp,
            id,
            &format!(
                r#"{{:url "{}" :body "secret payload"}}"#,
                allowed.url("/away")
            ),
        )
        .await
        .unwrap_err();
        assert!(
            matches!(&e, CallError::Denied { message, .. } if message.contains("redirect") && message.contains("allow-list")),
            "{id}: {e}"
        );
    }
    assert!(
        elsewhere.requests().is_empty(),
        "a redirect reached a host not allowed"
    );
    let e = call(
        &mp,
        "ccos.http.get",
        &format!(r#"{{:url "{}"}}"#, allowed.url("/loop")),
    )
    .await
    .unwrap_err();
    assert!(e.to_string().contains("redirects"), "{e}");
}

/// A hard link placed inside a root to a file outside it cannot be used
/// to write outside the roots.
#[tokio::test]
async fn writes_through_hard_links_are_refused() {
    let base = tempfile::tempdir().unwrap();
    let root = base.path().join("root");
    let outside = base.path().join("outside");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("victim.txt"), "original").unwrap();
    std::fs::hard_link(outside.join("victim.txt"), root.join("link.txt")).unwrap();
    let mp = mp_with(BuiltinConfig {
        file_roots: vec![root.clone()],
        prompter: Arc::new(ScriptedAnswers::new()),
        ..BuiltinConfig::default()
    });
    for id in ["ccos.file.write", "ccos.file.append"] {
        let e = call(&mp, id, r#"{:path "link.txt" :content "pwned"}"#)
            .await
            .unwrap_err();
        assert!(
            matches!(&e, CallError::Denied { message, .. } if message.contains("hard links")),
            "{id}: {e}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(outside.join("victim.txt")).unwrap(),
        "original"
    );
    // An ordinary file is written, and truncated by a write.
    call(
        &mp,
        "ccos.file.write",
        r#"{:path "a.txt" :content "long text"}"#,
    )
    .await
    .unwrap();
    call(
        &mp,
        "ccos.file.write",
        r#"{:path "a.txt" :content "short"}"#,
    )
    .await
    .unwrap();
    assert_eq!(
        std::fs::read_to_string(root.join("a.txt")).unwrap(),
        "short"
    );
}

#[tokio::test]
async fn unique_max_min_reverse() {
    let mp = mp();
    let ok = |r: Result<String, CallError>| r.unwrap();
    assert_eq!(
        ok(call(&mp, "ccos.data.unique", "{:items [3 1 3 2 1]}").await),
        "[3 1 2]"
    );
    assert_eq!(
        ok(call(&mp, "ccos.data.max", "{:items [4 19 7 12]}").await),
        "19"
    );
    assert_eq!(
        ok(call(&mp, "ccos.data.min", "{:items [4 19 7 12]}").await),
        "4"
    );
    assert!(call(&mp, "ccos.data.max", "{:items []}").await.is_err());
    // Texts that all spell numbers order as numbers, not letter by letter;
    // other texts keep the text order.
    assert_eq!(
        ok(call(&mp, "ccos.data.max", r#"{:items ["10" "9" "100"]}"#).await),
        "\"100\""
    );
    assert_eq!(
        ok(call(&mp, "ccos.data.min", r#"{:items ["10" "9" "-2.5"]}"#).await),
        "\"-2.5\""
    );
    assert_eq!(
        ok(call(&mp, "ccos.data.sort", r#"{:items ["10" "9" "100"]}"#).await),
        r#"["9" "10" "100"]"#
    );
    // A record without the key, or keys of several kinds, have no sure
    // place; numbers beside texts spelling numbers order as numbers.
    for items in [r#"[{:age 3} {:name "x"}]"#, r#"[{:age 3} {:age "old"}]"#] {
        let r = call(
            &mp,
            "ccos.data.sort",
            &format!("{{:items {items} :key \"age\"}}"),
        )
        .await;
        assert!(r.is_err(), "{items}: {r:?}");
    }
    assert_eq!(
        ok(call(
            &mp,
            "ccos.data.sort",
            r#"{:items [{:age 30} {:age "29"} {:age 4}] :key "age" :descending true}"#
        )
        .await),
        r#"[{:age 30} {:age "29"} {:age 4}]"#
    );
    // No item has the key: no empty answer.
    let r = call(
        &mp,
        "ccos.data.filter",
        r#"{:items [{"City" "Lima"}] :key "city" :equals "Lima"}"#,
    )
    .await;
    assert!(format!("{r:?}").contains("no item has :city"), "{r:?}");
    // Equality as a reader means it: numbers by value, a text spelling a
    // number as that number; other texts as written.
    let people =
        r#"[{:n "a" :age 34} {:n "b" :age "29"} {:n "c" :age 29.5} {:n "d" :city "Paris"}]"#;
    for (equals, kept) in [
        ("34.0", r#"[{:age 34 :n "a"}]"#),
        ("29", r#"[{:age "29" :n "b"}]"#),
        ("\"34\"", r#"[{:age 34 :n "a"}]"#),
        ("29.5", r#"[{:age 29.5 :n "c"}]"#),
        ("30", "[]"),
    ] {
        assert_eq!(
            ok(call(
                &mp,
                "ccos.data.filter",
                &format!("{{:items {people} :key \"age\" :equals {equals}}}")
            )
            .await),
            kept,
            ":equals {equals}"
        );
    }
    assert_eq!(
        ok(call(
            &mp,
            "ccos.data.filter",
            &format!("{{:items {people} :key \"city\" :equals \"paris\"}}")
        )
        .await),
        "[]"
    );
    assert_eq!(
        ok(call(
            &mp,
            "ccos.data.filter",
            r#"{:items [{:id 9007199254740993} {:id 9007199254740992}] :key "id" :equals 9007199254740992}"#
        )
        .await),
        "[{:id 9007199254740992}]"
    );
    assert_eq!(
        ok(call(
            &mp,
            "ccos.data.filter",
            r#"{:items [{:d true} {:d false} {:d "x"}] :key "d" :equals "TRUE"}"#
        )
        .await),
        "[{:d true}]"
    );
    // Occurrences: case aside, as a word, anywhere, or the one count both
    // agree on; they differ: an error that says so.
    for (args, want) in [
        (r#"{:text "The cat saw the rat" :of "the"}"#, "2"),
        (r#"{:text "banana" :of "a" :whole false}"#, "3"),
        (r#"{:text "an banana" :of "an" :whole true}"#, "1"),
        (r#"{:text "an banana" :of "an" :whole false}"#, "3"),
        (r#"{:text "C++ and C" :of "C++"}"#, "1"),
        (r#"{:text "7 17 7" :of 7 :whole true}"#, "2"),
    ] {
        assert_eq!(
            ok(call(&mp, "ccos.text.occurrences", args).await),
            want,
            "{args}"
        );
    }
    for (args, why) in [
        (
            r#"{:text "banana" :of "an"}"#,
            "0 time(s) as a word and 2 in all",
        ),
        (r#"{:text "x" :of ""}"#, ":of is empty"),
    ] {
        let r = call(&mp, "ccos.text.occurrences", args).await;
        assert!(format!("{r:?}").contains(why), "{args}: {r:?}");
    }
    // A key's value: as written, in another case and spacing, or, of each
    // record of a list, as a plural's singular; never a guess.
    for (args, want) in [
        (r#"{:data {:port 8080} :key "port"}"#, "8080"),
        (
            r#"{:data {"app_name" "demo"} :key "app name"}"#,
            r#""demo""#,
        ),
        (r#"{:data {:appName "demo"} :key "App Name"}"#, r#""demo""#),
        (
            r#"{:data [{:city "Rome"} {:city "Oslo"}] :key "cities"}"#,
            r#"["Rome" "Oslo"]"#,
        ),
        (
            r#"{:data [{:tag "a"} {:tag "b"}] :key "tags"}"#,
            r#"["a" "b"]"#,
        ),
        (r#"{:data [{:state "NY"}] :key "states"}"#, r#"["NY"]"#),
        (r#"{:data [{:box 1}] :key "boxes"}"#, "[1]"),
        (r#"{:data [{:size 1}] :key "sizes"}"#, "[1]"),
        (r#"{:data [{:bus 1}] :key "buses"}"#, "[1]"),
        (
            r#"{:data {:database {:host "db1" :port 5432}} :key "database host"}"#,
            r#""db1""#,
        ),
    ] {
        assert_eq!(ok(call(&mp, "ccos.data.get", args).await), want, "{args}");
    }
    for (args, why) in [
        (
            r#"{:data {:port 1} :key "ports"}"#,
            "no :ports: its keys are :port",
        ),
        (r#"{:data [{:a 1} {:b 2}] :key "a"}"#, "item 1: no :a"),
        (
            r#"{:data {:app_name 1 :appName 2} :key "app name"}"#,
            "more than one key",
        ),
        (r#"{:data 5 :key "a"}"#, "not a map or a list of maps"),
        (r#"{:data [{:new true}] :key "news"}"#, "no :news"),
        (r#"{:data [{:sale 1}] :key "sales"}"#, "no :sales"),
        (
            r#"{:data {:database {:port 1}} :key "database host"}"#,
            "no :database host",
        ),
    ] {
        let r = call(&mp, "ccos.data.get", args).await;
        assert!(format!("{r:?}").contains(why), "{args}: {r:?}");
    }
    // No key said, the keys that may hold the value (a relation's): the
    // one the maps have, case aside; several: the one holding it; none,
    // or two holding it, or a map without the key: an error.
    let places = r#"[{:name "Paris" :city "Rome"} {:name "Bo" :city "paris"}]"#;
    for (args, want) in [
        (
            format!("{{:items {places} :key [\"city\" \"town\"] :equals \"PARIS\"}}"),
            r#"[{:city "paris" :name "Bo"}]"#,
        ),
        (
            format!("{{:items {places} :key [\"city\"] :equals \"Oslo\"}}"),
            "[]",
        ),
        (
            r#"{:items [{:city "Rome" :country "IT"} {:city "Oslo" :country "NO"}] :key ["city" "country"] :equals "NO"}"#.to_string(),
            r#"[{:city "Oslo" :country "NO"}]"#,
        ),
        (
            r#"{:items [{:city "Paris, Texas"} {:city "Paris"}] :key ["city"] :equals "paris texas"}"#.to_string(),
            r#"[{:city "Paris, Texas"}]"#,
        ),
    ] {
        assert_eq!(ok(call(&mp, "ccos.data.filter", &args).await), want, "{args}");
    }
    for (args, why) in [
        (
            format!("{{:items {places} :key [\"company\"] :equals \"Paris\"}}"),
            "no key among :company",
        ),
        (
            r#"{:items [{:city "Paris"} {:name "Bo"}] :key ["city"] :equals "Paris"}"#.to_string(),
            "item 1 has no :city",
        ),
        (
            r#"{:items [{:city "Paris" :country "Paris"}] :key ["city" "country"] :equals "Paris"}"#.to_string(),
            "more than one key (:city, :country)",
        ),
        (
            format!("{{:items {places} :key [\"city\"]}}"),
            "needs :equals",
        ),
        (
            r#"{:items [{:city "New York"}] :key ["city"] :equals "New York City"}"#.to_string(),
            "but one is",
        ),
        (
            r#"{:items [{:city "Zürich"}] :key ["city"] :equals "Zurich"}"#.to_string(),
            "but one is",
        ),
        (
            r#"{:items [{:city "Paris" :state "Texas"}] :key ["city" "state"] :equals "Paris Texas"}"#.to_string(),
            "but one's :city is",
        ),
    ] {
        let r = call(&mp, "ccos.data.filter", &args).await;
        assert!(format!("{r:?}").contains(why), "{args}: {r:?}");
    }
    // Dates with day and month as numbers: which is which is a guess.
    for items in [
        r#"[{:d "1/15/2023"} {:d "12/25/2021"}]"#,
        r#"[{:d "25.12.2021"} {:d "2.1.2022"}]"#,
    ] {
        let r = call(
            &mp,
            "ccos.data.sort",
            &format!("{{:items {items} :key \"d\"}}"),
        )
        .await;
        assert!(format!("{r:?}").contains("YYYY-MM-DD"), "{items}: {r:?}");
    }
    assert_eq!(
        ok(call(
            &mp,
            "ccos.data.sort",
            r#"{:items ["2022-03-01" "2021-12-25"]}"#
        )
        .await),
        r#"["2021-12-25" "2022-03-01"]"#
    );
    assert_eq!(
        ok(call(&mp, "ccos.data.sort", r#"{:items ["1.2.10" "1.10.2"]}"#).await),
        r#"["1.10.2" "1.2.10"]"#
    );
    // Alphabetically: as words, case aside; numbers by their digits.
    assert_eq!(
        ok(call(
            &mp,
            "ccos.data.sort",
            r#"{:items ["pear" "Banana" "apple" "10" "9"] :alphabetical true}"#
        )
        .await),
        r#"["10" "9" "apple" "Banana" "pear"]"#
    );
    assert_eq!(
        ok(call(
            &mp,
            "ccos.data.sort",
            r#"{:items [{:n "b"} {:n "A"}] :key "n" :alphabetical true :descending true}"#
        )
        .await),
        r#"[{:n "b"} {:n "A"}]"#
    );
    assert_eq!(
        ok(call(&mp, "ccos.data.max", r#"{:items ["pear" "apple"]}"#).await),
        "\"pear\""
    );
    assert_eq!(
        ok(call(&mp, "ccos.data.max", r#"{:items ["1,000" "999"]}"#).await),
        "\"1,000\""
    );
    assert_eq!(
        ok(call(&mp, "ccos.data.sort", r#"{:items ["1,000" "999" "50"]}"#).await),
        r#"["50" "999" "1,000"]"#
    );
    // Texts with digits that are not all numbers: no order is sure.
    for items in [
        r#"["10" "9" ""]"#,
        r#"["$10" "$9"]"#,
        r#"["10 kg" "9 kg"]"#,
        r#"["NaN" "10" "9"]"#,
        r#"["1e400" "5"]"#,
        r#"["10" "9" "apple"]"#,
    ] {
        for id in ["ccos.data.max", "ccos.data.min"] {
            let e = call(&mp, id, &format!("{{:items {items}}}")).await;
            assert!(e.is_err(), "{id} {items}: {e:?}");
        }
    }
    assert_eq!(
        ok(call(&mp, "ccos.text.reverse", "{:text \"stressed\"}").await),
        "\"desserts\""
    );
}

#[tokio::test]
async fn related_answers_the_other_ends_or_says_what_is_unknown() {
    let mp = mp();
    let ok = |r: Result<String, CallError>| r.unwrap();
    let graph = r#"[{:from "Bob" :to "Globex" :relationType "works_at"}
                    {:from "Dana" :to "Globex" :relationType "works_at"}
                    {:from "Alice" :to "Bob" :relationType "knows"}
                    {:from "Dana" :to "Globex" :relationType "works_at"}]"#;
    let keys = r#":from_key "from" :to_key "to" :type_key "relationType""#;
    for (ask, want) in [
        (r#":type "works at" :to "Globex""#, r#"["Bob" "Dana"]"#),
        (r#":type "Works-At" :to "globex""#, r#"["Bob" "Dana"]"#),
        (r#":type "knows" :from "Alice""#, r#"["Bob"]"#),
        (r#":type "knows" :to "Globex""#, "[]"),
        (r#":type "works at" :to "Alice""#, "[]"),
    ] {
        let args = format!("{{:relations {graph} {keys} {ask}}}");
        assert_eq!(
            ok(call(&mp, "ccos.data.related", &args).await),
            want,
            "{ask}"
        );
    }
    for (ask, why) in [
        (
            r#":type "employed by" :to "Globex""#,
            r#"no relation is of the type \"employed by\"; the types are: \"knows\", \"works_at\""#,
        ),
        (r#":type "works at" :to "Initech""#, "is in no relation"),
        (r#":type "works at""#, "give one of :from and :to"),
        (r#":type "works at" :to "Bob" :from "Dana""#, "give one of"),
        (r#":type "" :to "Bob""#, "need words"),
    ] {
        let args = format!("{{:relations {graph} {keys} {ask}}}");
        let r = call(&mp, "ccos.data.related", &args).await;
        assert!(format!("{r:?}").contains(why), "{ask}: {r:?}");
    }
    // Types by words, whatever the spelling; names as written but for
    // case and spaces (attack trial: "C" matched "C++" and "C#", and
    // `worksAt` was dropped, `!works_at` taken).
    let spelled = r#"[{:from "A" :to "G" :relationType "works_at"}
                      {:from "B" :to "G" :relationType "WORKS-AT"}
                      {:from "C" :to "G" :relationType "worksAt"}
                      {:from "D" :to "G" :relationType "Works At"}
                      {:from "E" :to "G" :relationType "!works_at"}
                      {:from "F" :to "G" :relationType "-works_at"}
                      {:from "H" :to "C++" :relationType "uses"}
                      {:from "I" :to "C#" :relationType "uses"}
                      {:from "J" :to "c" :relationType "uses"}
                      {:from "K" :to "Go!" :relationType "uses"}
                      {:from "L" :to "New  York" :relationType "lives in"}]"#;
    for (ask, want) in [
        (r#":type "works at" :to "G""#, r#"["A" "B" "C" "D"]"#),
        (r#":type "uses" :to "C""#, r#"["J"]"#),
        (r#":type "uses" :to "C++""#, r#"["H"]"#),
        (r#":type "lives in" :to "new york""#, r#"["L"]"#),
    ] {
        let args = format!("{{:relations {spelled} {keys} {ask}}}");
        assert_eq!(
            ok(call(&mp, "ccos.data.related", &args).await),
            want,
            "{ask}"
        );
    }
    let r = call(
        &mp,
        "ccos.data.related",
        &format!("{{:relations {spelled} {keys} :type \"uses\" :to \"Go\"}}"),
    )
    .await;
    assert!(format!("{r:?}").contains("is in no relation"), "{r:?}");
    let r = call(
        &mp,
        "ccos.data.related",
        &format!(r#"{{:relations [{{:from "A"}}] {keys} :type "knows" :to "B"}}"#),
    )
    .await;
    assert!(
        format!("{r:?}").contains("relation 0 has no text under :relationType"),
        "{r:?}"
    );
}

#[tokio::test]
async fn nth_is_the_item_at_a_position_or_an_error() {
    let mp = mp();
    let ok = |r: Result<String, CallError>| r.unwrap();
    for (args, want) in [
        (r#"{:items ["a" "b" "c"] :position 1}"#, r#""a""#),
        (r#"{:items ["a" "b" "c"] :position 3}"#, r#""c""#),
        (r#"{:items ["a" "b" "c"] :position -1}"#, r#""c""#),
        (r#"{:items ["a" "b" "c"] :position -3}"#, r#""a""#),
    ] {
        assert_eq!(ok(call(&mp, "ccos.data.nth", args).await), want, "{args}");
    }
    for (args, why) in [
        (
            r#"{:items ["a"] :position 2}"#,
            "the list has 1 item, no item at position 2",
        ),
        (r#"{:items [] :position -1}"#, "the list has 0 items"),
        (
            r#"{:items ["a" "b"] :position -3}"#,
            "no item at position -3",
        ),
        (r#"{:items ["a"] :position 0}"#, "never 0"),
        (
            r#"{:items ["a"] :position -9223372036854775808}"#,
            "no item at position",
        ),
    ] {
        let r = call(&mp, "ccos.data.nth", args).await;
        assert!(format!("{r:?}").contains(why), "{args}: {r:?}");
    }
}
