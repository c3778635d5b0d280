//! Entry points for the fuzz targets (`fuzz/`), one per parser that reads untrusted input.
//! Each must return without panicking whatever the bytes; `tests/fuzz_corpus.rs` replays the
//! committed corpora through them on every test run.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::content::{self, ContentTree};

fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// A quiz file.
pub fn quiz_toml(data: &[u8]) {
    let (quiz, diags) = content::quiz::parse_standalone("fuzz.toml", &text(data));
    // Whatever loaded is usable: every answer index points at an option.
    if let Some(q) = quiz {
        for question in &q.questions {
            assert!(question.answer < question.options.len());
        }
    }
    let _ = diags.items.len();
}

/// A whole content tree: the input is split at NUL bytes into a lesson's lesson.toml and
/// en.md, a lab scenario, a glossary and a Fluent file, then loaded and checked together.
pub fn content_tree(data: &[u8]) {
    let t = text(data);
    let mut parts = t.split('\0');
    let mut next = || parts.next().unwrap_or("").to_string();
    let (meta, md, lab, glossary, ftl) = (next(), next(), next(), next(), next());
    let files = [
        ("lessons/01-x/lesson.toml", meta.as_str()),
        ("lessons/01-x/en.md", md.as_str()),
        ("lessons/01-x/lab-x.toml", lab.as_str()),
        ("assets/glossary.toml", glossary.as_str()),
        ("i18n/en/x.ftl", ftl.as_str()),
        ("i18n/ja/x.ftl", ""),
    ];
    let (course, diags) = content::load(&ContentTree::from_files(files));
    // Every diagnostic points at a real line of some file.
    for d in &diags.items {
        assert!(d.line >= 1 && d.col >= 1);
    }
    let _ = course.lessons.len();
}

/// A typed quiz answer, for a question with 1 to 9 options.
pub fn answer(data: &[u8]) {
    let n = data.first().map(|b| (b % 9) as usize + 1).unwrap_or(4);
    let s = text(data.get(1..).unwrap_or_default());
    if let Ok(i) = crate::quiz::parse_answer(&s, n) {
        assert!(i < n);
    }
}

/// Key presses and pastes into the lab's terminal.
pub fn keys(data: &[u8]) {
    for chunk in data.chunks(4) {
        let code = match chunk[0] % 12 {
            0 => KeyCode::Enter,
            1 => KeyCode::Backspace,
            2 => KeyCode::Up,
            3 => KeyCode::Left,
            4 => KeyCode::Home,
            5 => KeyCode::PageDown,
            6 => KeyCode::Delete,
            7 => KeyCode::F(chunk.get(1).copied().unwrap_or(1) % 24 + 1),
            8 => KeyCode::Tab,
            9 => KeyCode::Esc,
            _ => {
                let c = chunk
                    .get(1..)
                    .map(|b| String::from_utf8_lossy(b).chars().next().unwrap_or('a'))
                    .unwrap_or('a');
                KeyCode::Char(c)
            }
        };
        let mods = KeyModifiers::from_bits_truncate(chunk.get(3).copied().unwrap_or(0));
        let app_cursor = chunk[0] & 0x80 != 0;
        if let Some(bytes) =
            crate::lab::app::key_bytes::encode(&KeyEvent::new(code, mods), app_cursor)
        {
            assert!(!bytes.is_empty());
        }
    }
    let pasted = crate::lab::app::key_bytes::paste(&text(data), true);
    // The paste can never end early: the end marker appears exactly once, at the end.
    assert!(pasted.ends_with(b"\x1b[201~"));
    assert_eq!(pasted.windows(6).filter(|w| *w == b"\x1b[201~").count(), 1);
}

/// The side channel's byte stream, in arbitrary pieces.
pub fn record(data: &[u8]) {
    let mut s = crate::lab::wire::record::Splitter::default();
    let cut = data.first().map(|b| *b as usize % 17 + 1).unwrap_or(7);
    let in_pieces: Vec<_> = data.chunks(cut).flat_map(|piece| s.feed(piece)).collect();
    // However the pipe cuts the stream, the same records come out of it.
    let whole = crate::lab::wire::record::Splitter::default().feed(data);
    assert_eq!(in_pieces, whole);
}

/// Lesson Markdown, laid out for the reader at several widths.
pub fn markdown(data: &[u8]) {
    let src = text(data);
    let blocks = crate::markdown::parse(&src);
    let course = crate::content::Course::default();
    let theme = crate::tui::theme::Theme {
        color: true,
        ascii: false,
    };
    for width in [1usize, 9, 40, 80] {
        let doc = crate::tui::doc::layout(&blocks, width, &course, &theme);
        for line in &doc.lines {
            let w: usize = line.iter().map(super::tui::wrap::Seg::width).sum();
            // A line may exceed the width only by one wide character that cannot be split.
            assert!(w <= width.max(8) + 2, "{w} > {width}");
        }
    }
}
