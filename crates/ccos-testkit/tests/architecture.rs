//! The dependency rule of ARCHITECTURE.md, checked: the crates are listed
//! in layers (lowest first) in the `layers` block of ARCHITECTURE.md, and a
//! crate may depend (normal or build dependencies) only on crates of
//! earlier layers. Dev-dependencies are free (tests may use anything).

use std::collections::BTreeMap;
use std::path::Path;

fn root() -> std::path::PathBuf {
    ccos_testkit::repo_root()
}

/// `crate name -> layer index` from ARCHITECTURE.md's `layers` block: lines
/// `N. crate-a, crate-b` between the `<!-- layers -->` and
/// `<!-- /layers -->` markers.
fn layers() -> BTreeMap<String, usize> {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let start = text
        .find("<!-- layers -->")
        .expect("a <!-- layers --> block in ARCHITECTURE.md");
    let end = text
        .find("<!-- /layers -->")
        .expect("the end of the layers block");
    let mut out = BTreeMap::new();
    for line in text[start..end].lines() {
        let Some((n, crates)) = line.trim().split_once(". ") else {
            continue;
        };
        let Ok(n) = n.parse::<usize>() else { continue };
        for c in crates.split(',') {
            let c = c.trim().trim_matches('`');
            if !c.is_empty() {
                out.insert(c.to_string(), n);
            }
        }
    }
    out
}

/// The ccos crates a manifest depends on (normal and build sections).
fn our_dependencies(manifest: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(manifest).expect("Cargo.toml");
    let doc: toml::Table = text.parse().expect("a valid Cargo.toml");
    let mut out = vec![];
    for section in ["dependencies", "build-dependencies"] {
        if let Some(deps) = doc.get(section).and_then(|d| d.as_table()) {
            out.extend(
                deps.keys()
                    .filter(|k| k.starts_with("ccos-") || *k == "rtfs")
                    .cloned(),
            );
        }
    }
    out
}

#[test]
fn every_crate_depends_only_on_lower_layers() {
    let layers = layers();
    let mut checked = 0;
    let mut problems = vec![];
    for entry in std::fs::read_dir(root().join("crates")).expect("crates/") {
        let dir = entry.expect("a crate directory").path();
        let name = dir
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string();
        if !dir.join("Cargo.toml").is_file() {
            continue;
        }
        let Some(&own) = layers.get(&name) else {
            problems.push(format!("{name} is not in ARCHITECTURE.md's layers"));
            continue;
        };
        for dep in our_dependencies(&dir.join("Cargo.toml")) {
            match layers.get(&dep) {
                Some(&l) if l < own => {}
                Some(&l) => problems.push(format!(
                    "{name} (layer {own}) depends on {dep} (layer {l}): only lower layers are allowed"
                )),
                None => problems.push(format!("{name} depends on {dep}, which is in no layer")),
            }
        }
        checked += 1;
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(checked >= 15, "only {checked} crates checked");
}
