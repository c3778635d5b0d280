//! Every input in the committed fuzz corpora (fuzz/corpus/TARGET/*), including those kept as
//! regressions for bugs the fuzzer found, goes through the same entry point the fuzz target
//! uses. Runs on stable Rust; the fuzzing itself needs `cargo +nightly fuzz run TARGET`.

use std::path::Path;

fn replay(target: &str, f: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = e.unwrap().path();
        let data = std::fs::read(&path).unwrap();
        let r = std::panic::catch_unwind(|| f(&data));
        assert!(r.is_ok(), "{target}: {} panics", path.display());
        n += 1;
    }
    assert!(n > 0, "{target}: empty corpus");
}

#[test]
fn quiz_toml() {
    replay("quiz_toml", rocm_learn::fuzzing::quiz_toml);
}

#[test]
fn content_tree() {
    replay("content_tree", rocm_learn::fuzzing::content_tree);
}

#[test]
fn answer() {
    replay("answer", rocm_learn::fuzzing::answer);
}

#[test]
fn keys() {
    replay("keys", rocm_learn::fuzzing::keys);
}

#[test]
fn record() {
    replay("record", rocm_learn::fuzzing::record);
}

#[test]
fn markdown() {
    replay("markdown", rocm_learn::fuzzing::markdown);
}
