//! ARCHITECTURE.md names files as the way into the code: every `src/...` and `crates/...` path
//! it mentions must exist, so a rename that leaves the map behind fails here. And no file
//! imports a file that imports it back, directly or around a circle.

use std::path::Path;

/// The `src/...` paths in a text: runs of path characters starting at `src/`, without the
/// sentence punctuation that may follow them.
fn src_paths(text: &str) -> Vec<String> {
    paths_from(text, "src/")
}

/// The paths in a text that start at `prefix` (`src/`, `crates/`), as [`src_paths`].
fn paths_from(text: &str, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find(prefix) {
        let preceded = rest[..i].chars().next_back();
        let tail = &rest[i..];
        let end = tail
            .find(|c: char| !(c.is_ascii_alphanumeric() || "/_.-".contains(c)))
            .unwrap_or(tail.len());
        // `fuzz/src/...` and the like belong to other crates; only paths that start at `src/`.
        if !preceded.is_some_and(|c| c.is_ascii_alphanumeric() || c == '/' || c == '_') {
            out.push(tail[..end].trim_end_matches('.').to_string());
        }
        rest = &tail[end.max(prefix.len())..];
    }
    out
}

#[test]
fn every_source_path_in_architecture_md_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let mut paths = src_paths(&text);
    assert!(paths.len() >= 30, "too few paths found: {paths:?}");
    paths.extend(paths_from(&text, "crates/"));
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
fn every_crate_of_the_workspace_is_named() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let named = paths_from(&text, "crates/");
    for dir in std::fs::read_dir(root.join("crates"))
        .expect("crates/")
        .flatten()
    {
        let dir = format!("crates/{}/", dir.file_name().to_string_lossy());
        assert!(
            named.iter().any(|p| p.starts_with(&dir)),
            "ARCHITECTURE.md does not name the crate {dir}"
        );
    }
}

#[test]
fn paths_are_found_as_written() {
    let found = src_paths("see `src/lab/run.rs`, then src/tui/ and fuzz/src/x.rs.");
    assert_eq!(found, ["src/lab/run.rs", "src/tui/"]);
}

// ---- no import circles between files ------------------------------------------------------

/// Mutual imports between two files that are tolerated, each with why: none are left. Every
/// other circle fails the test; an entry that is no longer a circle fails it too, so the list
/// only shrinks.
const ALLOWED_CIRCLES: &[(&str, &str)] = &[];

/// Every `.rs` file under `dir` (recursively), sorted.
fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a file of the crate whose root folder is `src`: `a/b.rs` and
/// `a/b/mod.rs` are `[a, b]`, `lib.rs` is `[]`.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("under src");
    let mut parts: Vec<String> = rel
        .with_extension("")
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// The text of a file without line comments and without its `#[cfg(test)] mod ... { }` blocks
/// (a test module may import what it likes).
fn code_of(text: &str) -> String {
    let no_comments: String = text
        .lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = String::new();
    let mut rest = no_comments.as_str();
    while let Some(i) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..i]);
        let after = &rest[i + "#[cfg(test)]".len()..];
        let head = after.trim_start();
        let is_mod = head.starts_with("mod ") || head.starts_with("pub(crate) mod ");
        match (is_mod, after.find('{'), after.find(';')) {
            (true, Some(open), semi) if semi.is_none_or(|s| s > open) => {
                let mut depth = 0;
                let mut end = after.len();
                for (j, c) in after[open..].char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = open + j + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                rest = &after[end..];
            }
            _ => {
                out.push_str("#[cfg(test)]");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// `a::{b, c::{d, e}}` as `a::b`, `a::c::d`, `a::c::e`.
fn expand_use(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        return vec![tree.to_string()];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .flat_map(expand_use)
        .map(|p| format!("{prefix}{p}"))
        .collect()
}

/// The paths a file's code names: every `use` (expanded) and every `crate::`/`super::` path.
fn paths_named(code: &str) -> Vec<String> {
    let mut paths = Vec::new();
    let bytes = code.as_bytes();
    let word_start = |i: usize| {
        i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || b"_:".contains(&bytes[i - 1]))
    };
    let mut i = 0;
    while let Some(j) = code[i..].find("use ") {
        let at = i + j;
        if word_start(at)
            && let Some(end) = code[at..].find(';')
        {
            paths.extend(expand_use(&code[at + 4..at + end].replace('\n', " ")));
        }
        i = at + 4;
    }
    for key in ["crate::", "super::"] {
        let mut i = 0;
        while let Some(j) = code[i..].find(key) {
            let at = i + j;
            if word_start(at) {
                let end = code[at..]
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                    .map_or(code.len(), |e| at + e);
                paths.push(code[at..end].to_string());
            }
            i = at + key.len();
        }
    }
    paths.sort();
    paths.dedup();
    paths
}

/// The file a path named in the file of module `me` leads to: the deepest module on the path
/// that is a file of the crate.
fn target(
    path: &str,
    me: &[String],
    files: &std::collections::BTreeMap<Vec<String>, String>,
) -> Option<String> {
    let segs: Vec<&str> = path
        .split("::")
        .map(|s| s.split(" as ").next().unwrap_or("").trim())
        .filter(|s| !s.is_empty())
        .collect();
    let (mut cur, mut rest): (Vec<String>, &[&str]) = match segs.first() {
        Some(&"crate") => (Vec::new(), &segs[1..]),
        Some(&("super" | "self")) => (me.to_vec(), &segs[..]),
        Some(first) => {
            // `use child::Item` in the file that declares `child`.
            let mut child = me.to_vec();
            child.push((*first).to_string());
            if !files.contains_key(&child) {
                return None;
            }
            (me.to_vec(), &segs[..])
        }
        None => return None,
    };
    while let Some((s, tail)) = rest.split_first() {
        match *s {
            "super" => {
                cur.pop();
            }
            "self" => {}
            _ => break,
        }
        rest = tail;
    }
    let mut best = cur.clone();
    for s in rest {
        cur.push((*s).to_string());
        if files.contains_key(&cur) {
            best = cur.clone();
        } else {
            break;
        }
    }
    files.get(&best).cloned()
}

/// Which files each file of the crate rooted at `src` imports, by paths relative to the repository.
fn import_graph(
    root: &Path,
    src: &str,
) -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    let src_dir = root.join(src);
    let mut found = Vec::new();
    rust_files(&src_dir, &mut found);
    let rel = |p: &Path| {
        p.strip_prefix(root)
            .expect("in repo")
            .to_string_lossy()
            .into_owned()
    };
    // The binary's main.rs is a crate of its own over the library.
    found.retain(|f| f != &src_dir.join("main.rs"));
    let files: std::collections::BTreeMap<Vec<String>, String> = found
        .iter()
        .map(|f| (module_of(&src_dir, f), rel(f)))
        .collect();
    let mut graph = std::collections::BTreeMap::new();
    for f in &found {
        let me = module_of(&src_dir, f);
        let code = code_of(&std::fs::read_to_string(f).expect("source"));
        let name = rel(f);
        let targets: std::collections::BTreeSet<String> = paths_named(&code)
            .iter()
            .filter_map(|p| target(p, &me, &files))
            .filter(|t| *t != name)
            .collect();
        graph.insert(name, targets);
    }
    graph
}

/// The circles of a graph: its strongly connected parts of more than one file (Tarjan).
fn circles(
    graph: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
) -> Vec<Vec<String>> {
    use std::collections::HashMap;
    struct Walk<'g> {
        graph: &'g std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
        index: HashMap<&'g str, usize>,
        low: HashMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: std::collections::HashSet<&'g str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'g>(w: &mut Walk<'g>, v: &'g str) {
        let n = w.index.len();
        w.index.insert(v, n);
        w.low.insert(v, n);
        w.stack.push(v);
        w.on_stack.insert(v);
        for t in w.graph.get(v).into_iter().flatten() {
            let t = t.as_str();
            if !w.index.contains_key(t) {
                visit(w, t);
                let l = w.low[t].min(w.low[v]);
                w.low.insert(v, l);
            } else if w.on_stack.contains(t) {
                let l = w.index[t].min(w.low[v]);
                w.low.insert(v, l);
            }
        }
        if w.low[v] == w.index[v] {
            let mut part = Vec::new();
            while let Some(t) = w.stack.pop() {
                w.on_stack.remove(t);
                part.push(t.to_string());
                if t == v {
                    break;
                }
            }
            if part.len() > 1 {
                part.sort();
                w.found.push(part);
            }
        }
    }
    let mut w = Walk {
        graph,
        index: HashMap::new(),
        low: HashMap::new(),
        stack: Vec::new(),
        on_stack: Default::default(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !w.index.contains_key(v.as_str()) {
            visit(&mut w, v);
        }
    }
    w.found
}

#[test]
fn no_file_imports_a_file_that_imports_it_back() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut crates = vec!["src".to_string()];
    let mut dirs: Vec<_> = std::fs::read_dir(root.join("crates"))
        .expect("crates/")
        .flatten()
        .map(|e| format!("crates/{}/src", e.file_name().to_string_lossy()))
        .collect();
    dirs.sort();
    crates.extend(dirs);
    let mut problems = Vec::new();
    for src in &crates {
        let mut graph = import_graph(root, src);
        for (a, b) in ALLOWED_CIRCLES
            .iter()
            .filter(|(a, _)| a.starts_with(&format!("{src}/")))
        {
            let mutual = graph.get(*a).is_some_and(|t| t.contains(*b))
                && graph.get(*b).is_some_and(|t| t.contains(*a));
            if !mutual {
                problems.push(format!(
                    "{a} and {b} no longer import each other: drop them from ALLOWED_CIRCLES"
                ));
            }
            graph.get_mut(*a).map(|t| t.remove(*b));
            graph.get_mut(*b).map(|t| t.remove(*a));
        }
        for c in circles(&graph) {
            problems.push(format!(
                "these files import each other in a circle: {}",
                c.join(", ")
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn imports_are_read_as_written() {
    assert_eq!(
        expand_use("super::{a, b::{C, D as E}}"),
        ["super::a", "super::b::C", "super::b::D as E"]
    );
    let code = code_of(
        "use super::state::State; // super::kernel\nfn f() { crate::fsx::host(); }\n#[cfg(test)]\nmod tests {\n    use super::udev::*;\n}\n",
    );
    assert_eq!(
        paths_named(&code),
        ["crate::fsx::host", "super::state::State"]
    );
    // A circle of three files is found, and so is its absence.
    let g = |edges: &[(&str, &str)]| {
        let mut g = std::collections::BTreeMap::<String, std::collections::BTreeSet<String>>::new();
        for (a, b) in edges {
            g.entry(a.to_string()).or_default().insert(b.to_string());
            g.entry(b.to_string()).or_default();
        }
        g
    };
    assert_eq!(
        circles(&g(&[("a", "b"), ("b", "c"), ("c", "a")])),
        [["a", "b", "c"]]
    );
    assert!(circles(&g(&[("a", "b"), ("b", "c"), ("a", "c")])).is_empty());
}

/// The simulator's crate repeats the workspace's lints (a crate cannot add to `workspace =
/// true`) and adds `missing_docs`: the copy must not drift.
#[test]
fn the_simulator_keeps_the_workspace_lints_and_documents_its_api() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |p: &str| -> toml::Table {
        toml::from_str(&std::fs::read_to_string(root.join(p)).expect(p)).expect(p)
    };
    let workspace = read("Cargo.toml")["workspace"]["lints"].clone();
    let mut sim = read("crates/sim/Cargo.toml")["lints"].clone();
    let docs = sim["rust"]
        .as_table_mut()
        .and_then(|t| t.remove("missing_docs"));
    assert_eq!(
        docs.and_then(|d| d.as_str().map(String::from)).as_deref(),
        Some("warn")
    );
    assert_eq!(
        sim, workspace,
        "crates/sim/Cargo.toml's [lints] differ from the workspace's"
    );
}

/// Every `.rs` file below `dir`, sorted.
fn rust_files_below(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    rust_files(dir, &mut out);
    out
}

#[test]
fn each_side_of_the_lab_imports_the_wire_and_never_the_other_side() {
    let lab = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lab");
    let rules = [
        ("app", ["lab::sandbox"].as_slice()),
        ("sandbox", ["lab::app"].as_slice()),
        ("wire", ["lab::app", "lab::sandbox"].as_slice()),
    ];
    let mut crossings = Vec::new();
    for (side, forbidden) in rules {
        let files = rust_files_below(&lab.join(side));
        assert!(files.len() >= 4, "src/lab/{side} has too few files");
        for f in files {
            let code = code_of(&std::fs::read_to_string(&f).expect("source"));
            for (n, line) in code.lines().enumerate() {
                if forbidden.iter().any(|x| line.contains(x)) {
                    crossings.push(format!("{}:{}: {}", f.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        crossings.is_empty(),
        "the lab's sides import each other:\n{}",
        crossings.join("\n")
    );
}

#[test]
fn unsafe_is_allowed_in_one_module_per_side_only() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
    assert!(
        manifest.contains("unsafe_code = \"deny\""),
        "the workspace no longer denies unsafe code"
    );
    let mut allowed: Vec<String> = Vec::new();
    let mut files = rust_files_below(&root.join("src"));
    for c in std::fs::read_dir(root.join("crates"))
        .expect("crates")
        .flatten()
    {
        rust_files(&c.path().join("src"), &mut files);
    }
    for f in files {
        let code = code_of(&std::fs::read_to_string(&f).expect("source"));
        if code.contains("allow(unsafe_code)") {
            let rel = f.strip_prefix(root).expect("below the root");
            allowed.push(rel.display().to_string());
        }
    }
    allowed.sort();
    assert_eq!(allowed, ["src/lab/sandbox/sys.rs", "src/sys.rs"]);
}

// ---- the layers of ARCHITECTURE.md's table --------------------------------------------------

/// The layers of ARCHITECTURE.md's table, top first: each the `src/...` files and folders its
/// "modules" column names (a folder ends in `/`). The table is the source of truth; this only
/// reads it.
fn layers_of(text: &str) -> Vec<(String, Vec<String>)> {
    let mut layers = Vec::new();
    let mut in_table = false;
    for line in text.lines() {
        let cells: Vec<&str> = line
            .trim()
            .trim_matches('|')
            .split('|')
            .map(str::trim)
            .collect();
        if cells.len() >= 3 && cells[0] == "layer" && cells[1] == "modules" {
            in_table = true;
            continue;
        }
        if !in_table
            || cells
                .iter()
                .all(|c| c.chars().all(|ch| ch == '-' || ch == ' '))
        {
            continue;
        }
        if !line.trim_start().starts_with('|') || cells.len() < 3 {
            break;
        }
        layers.push((cells[0].to_string(), src_paths(cells[1])));
    }
    layers
}

/// The layer (an index into `layers`, 0 the top) a file belongs to: the longest path of the
/// table that is the file or a folder holding it.
fn layer_of(file: &str, layers: &[(String, Vec<String>)]) -> Option<usize> {
    layers
        .iter()
        .enumerate()
        .flat_map(|(i, (_, paths))| paths.iter().map(move |p| (i, p)))
        .filter(|(_, p)| *p == file || (p.ends_with('/') && file.starts_with(p.as_str())))
        .max_by_key(|(_, p)| p.len())
        .map(|(i, _)| i)
}

/// Every import of a file from a layer above its own, as "file (layer) imports file (layer)",
/// and every file the table does not place. `src/lib.rs` is the crate's root (it declares the
/// modules and names the helper crates), not a layer.
fn wrong_way_imports(
    graph: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
    layers: &[(String, Vec<String>)],
) -> Vec<String> {
    let mut problems = Vec::new();
    let root = "src/lib.rs";
    for (file, targets) in graph.iter().filter(|(f, _)| *f != root) {
        let Some(mine) = layer_of(file, layers) else {
            problems.push(format!("{file} is in no layer of ARCHITECTURE.md's table"));
            continue;
        };
        for t in targets.iter().filter(|t| *t != root) {
            match layer_of(t, layers) {
                Some(theirs) if theirs < mine => problems.push(format!(
                    "{file} ({}) imports {t} ({}), a layer above it",
                    layers[mine].0, layers[theirs].0
                )),
                _ => {}
            }
        }
    }
    problems
}

#[test]
fn each_file_imports_only_its_own_layer_or_below() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let layers = layers_of(&text);
    let names: Vec<&str> = layers.iter().map(|(n, _)| n.as_str()).collect();
    assert!(
        names.len() >= 5,
        "the table of layers was not found: {names:?}"
    );
    let problems = wrong_way_imports(&import_graph(root, "src"), &layers);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_wrong_way_import_is_found() {
    let table = "| layer | modules | job |\n| --- | --- | --- |\n\
                 | top | `src/tui/`, `src/cli/mod.rs` | |\n\
                 | core | `src/content/` | |\n\
                 | helpers | `src/hostfs.rs`, `src/content/plain.rs` | |\n\nafter";
    let layers = layers_of(table);
    assert_eq!(
        layers.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
        ["top", "core", "helpers"]
    );
    let graph = |edges: &[(&str, &str)]| {
        let mut g = std::collections::BTreeMap::<String, std::collections::BTreeSet<String>>::new();
        for (a, b) in edges {
            g.entry(a.to_string()).or_default().insert(b.to_string());
            g.entry(b.to_string()).or_default();
        }
        g
    };
    // Downwards and sideways: fine; the lib root is no layer.
    let good = graph(&[
        ("src/tui/app.rs", "src/content/mod.rs"),
        ("src/content/mod.rs", "src/hostfs.rs"),
        ("src/content/mod.rs", "src/content/lesson.rs"),
        ("src/hostfs.rs", "src/lib.rs"),
    ]);
    assert_eq!(wrong_way_imports(&good, &layers), Vec::<String>::new());
    // A helper importing the course, and a file the table does not place, are both found; a
    // file named on its own wins over its folder.
    let bad = graph(&[
        ("src/hostfs.rs", "src/content/diag.rs"),
        ("src/content/plain.rs", "src/content/mod.rs"),
        ("src/serve/mod.rs", "src/tui/app.rs"),
    ]);
    assert_eq!(
        wrong_way_imports(&bad, &layers),
        [
            "src/content/plain.rs (helpers) imports src/content/mod.rs (core), a layer above it",
            "src/hostfs.rs (helpers) imports src/content/diag.rs (core), a layer above it",
            "src/serve/mod.rs is in no layer of ARCHITECTURE.md's table",
        ]
    );
}
