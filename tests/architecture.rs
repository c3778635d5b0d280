//! ARCHITECTURE.md names files as the way into the code: every `src/...` path it mentions must
//! exist, so a rename that leaves the map behind fails here.

use std::path::Path;

/// The `src/...` paths in a text: runs of path characters starting at `src/`, without the
/// sentence punctuation that may follow them.
fn src_paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("src/") {
        let preceded = rest[..i].chars().next_back();
        let tail = &rest[i..];
        let end = tail
            .find(|c: char| !(c.is_ascii_alphanumeric() || "/_.-".contains(c)))
            .unwrap_or(tail.len());
        // `fuzz/src/...` and the like belong to other crates; only paths that start at `src/`.
        if !preceded.is_some_and(|c| c.is_ascii_alphanumeric() || c == '/' || c == '_') {
            out.push(tail[..end].trim_end_matches('.').to_string());
        }
        rest = &tail[end.max(4)..];
    }
    out
}

#[test]
fn every_source_path_in_architecture_md_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let paths = src_paths(&text);
    assert!(paths.len() >= 30, "too few paths found: {paths:?}");
    let missing: Vec<&String> = paths
        .iter()
        .filter(|p| !root.join(p.as_str()).exists())
        .collect();
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names missing files: {missing:?}"
    );
}

#[test]
fn every_top_level_module_is_named() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).expect("lib.rs");
    let paths = src_paths(&text);
    for module in lib
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|m| m.trim_end_matches(';'))
        .filter(|m| *m != "fuzzing")
    {
        let file = format!("src/{module}.rs");
        let dir = format!("src/{module}/");
        assert!(
            paths.iter().any(|p| *p == file || p.starts_with(&dir)),
            "ARCHITECTURE.md does not name the module `{module}`"
        );
    }
}

#[test]
fn paths_are_found_as_written() {
    let found = src_paths("see `src/lab/run.rs`, then src/tui/ and fuzz/src/x.rs.");
    assert_eq!(found, ["src/lab/run.rs", "src/tui/"]);
}
