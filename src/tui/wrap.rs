//! Line breaking for mixed English, Japanese and Korean text, measured in terminal cells.
//!
//! English and Korean break at spaces. Japanese has no spaces, so it may break between any two
//! characters, except before closing punctuation and small kana or after opening brackets
//! (kinsoku shori). A word wider than the line is cut at a cell boundary.

use ratatui::style::Style;

// Widths live in a module of their own so that the command-line report and the simulator
// measure text exactly as the app does, without depending on the app.
pub use crate::width::{cell_width, pad, set_ascii, str_width, truncate, widest};

/// A run of text with one style, optionally part of a link (index into the document's links).
#[derive(Debug, Clone, PartialEq)]
pub struct Seg {
    pub text: String,
    pub style: Style,
    pub link: Option<usize>,
}

impl Seg {
    pub fn new(text: impl Into<String>, style: Style) -> Self {
        Seg {
            text: text.into(),
            style,
            link: None,
        }
    }

    pub fn width(&self) -> usize {
        self.text.chars().map(cell_width).sum()
    }
}

/// Characters that must not start a line.
fn no_break_before(c: char) -> bool {
    "、。，．,.!?！？)）」』】〉》〕]｝}ー々ゝゞぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ・:;：；%％".contains(c)
}

/// Characters that must not end a line.
fn no_break_after(c: char) -> bool {
    "(（「『【〈《〔[｛{".contains(c)
}

/// Scripts written without spaces between words.
fn is_cjk_ideo(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF     // Hiragana, Katakana
        | 0x3400..=0x4DBF   // CJK extension A
        | 0x4E00..=0x9FFF   // CJK unified ideographs
        | 0xF900..=0xFAFF   // compatibility ideographs
        | 0xFF66..=0xFF9F   // half-width katakana
        | 0x3000..=0x303F   // CJK punctuation
        | 0xFF01..=0xFF0F | 0xFF1A..=0xFF20 // full-width punctuation
    )
}

/// May a line break fall between `a` and `b` (with no space between them)?
fn can_break_between(a: char, b: char) -> bool {
    if no_break_before(b) || no_break_after(a) {
        return false;
    }
    is_cjk_ideo(a) || is_cjk_ideo(b)
}

/// One character with its style and link, the unit the breaker works on.
#[derive(Clone, Copy)]
struct Cell {
    c: char,
    style: Style,
    link: Option<usize>,
}

/// Wraps `segs` to `width` cells. `first` is put before the first line and `rest` before the
/// others (list markers and hanging indents); both count towards the width.
pub fn wrap(segs: &[Seg], width: usize, first: &[Seg], rest: &[Seg]) -> Vec<Vec<Seg>> {
    let cells: Vec<Cell> = segs
        .iter()
        .flat_map(|s| {
            s.text.chars().filter(|c| *c != '\n').map(move |c| Cell {
                c,
                style: s.style,
                link: s.link,
            })
        })
        .collect();
    let mut lines = Vec::new();
    let mut start = 0;
    let mut line_no = 0;
    loop {
        let prefix = if line_no == 0 { first } else { rest };
        let avail = width
            .saturating_sub(prefix.iter().map(Seg::width).sum())
            .max(1);
        // Skip spaces at the start of a continuation line.
        if line_no > 0 {
            while start < cells.len() && cells[start].c == ' ' {
                start += 1;
            }
        }
        if start >= cells.len() {
            if line_no == 0 {
                lines.push(prefix.to_vec());
            }
            break;
        }
        let end = line_end(&cells, start, avail);
        let mut line = prefix.to_vec();
        // Drop trailing spaces: they would only push the line past the edge.
        let mut stop = end;
        while stop > start && cells[stop - 1].c == ' ' {
            stop -= 1;
        }
        push_cells(&mut line, &cells[start..stop]);
        lines.push(line);
        start = end;
        line_no += 1;
    }
    lines
}

/// Index one past the last cell that goes on a line starting at `start`.
fn line_end(cells: &[Cell], start: usize, avail: usize) -> usize {
    let mut used = 0;
    let mut last_break = None;
    let mut i = start;
    while i < cells.len() {
        let w = cell_width(cells[i].c);
        if used + w > avail {
            // A space that does not fit still ends the line cleanly.
            if cells[i].c == ' ' {
                return i + 1;
            }
            return match last_break {
                Some(b) if b > start => b,
                // One word wider than the line: cut it (at least one character per line).
                _ => i.max(start + 1),
            };
        }
        used += w;
        // A line may end after a space, or between two characters of a script without spaces.
        let breakable = cells[i].c == ' '
            || (i + 1 < cells.len()
                && cells[i + 1].c != ' '
                && can_break_between(cells[i].c, cells[i + 1].c));
        if breakable {
            last_break = Some(i + 1);
        }
        i += 1;
    }
    cells.len()
}

fn push_cells(line: &mut Vec<Seg>, cells: &[Cell]) {
    for cell in cells {
        match line.last_mut() {
            Some(last) if last.style == cell.style && last.link == cell.link => {
                last.text.push(cell.c);
            }
            _ => line.push(Seg {
                text: cell.c.to_string(),
                style: cell.style,
                link: cell.link,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(lines: &[Vec<Seg>]) -> Vec<String> {
        lines
            .iter()
            .map(|l| l.iter().map(|s| s.text.as_str()).collect())
            .collect()
    }

    fn w(s: &str, width: usize) -> Vec<String> {
        texts(&wrap(&[Seg::new(s, Style::default())], width, &[], &[]))
    }

    #[test]
    fn english_breaks_at_spaces() {
        assert_eq!(w("the quick brown fox", 10), vec!["the quick", "brown fox"]);
    }

    #[test]
    fn a_long_word_is_cut() {
        assert_eq!(w("abcdefghij", 4), vec!["abcd", "efgh", "ij"]);
    }

    #[test]
    fn japanese_breaks_between_characters_but_not_before_closing_punctuation() {
        // 10 cells = 5 wide characters per line; "。" must not start a line.
        let lines = w("これはペンです。あれは本です。", 10);
        for l in &lines {
            assert!(str_width(l) <= 10, "{l:?}");
            assert!(!l.starts_with('。'), "{lines:?}");
        }
        assert_eq!(lines.concat(), "これはペンです。あれは本です。");
    }

    #[test]
    fn korean_breaks_at_spaces_not_inside_words() {
        assert_eq!(
            w("설치 문제는 거의 언제나", 12),
            vec!["설치 문제는", "거의 언제나"]
        );
    }

    #[test]
    fn lines_never_exceed_the_width_even_with_wide_characters() {
        for width in 1..12 {
            for line in w("GPU は部品です。ROCm は AMD の名前です", width) {
                assert!(str_width(&line) <= width.max(2), "{width}: {line:?}");
            }
        }
    }

    #[test]
    fn hanging_indent_applies_to_continuation_lines() {
        let lines = wrap(
            &[Seg::new("one two three four", Style::default())],
            10,
            &[Seg::new("- ", Style::default())],
            &[Seg::new("  ", Style::default())],
        );
        assert_eq!(texts(&lines), vec!["- one two", "  three", "  four"]);
    }

    #[test]
    fn empty_text_gives_one_line() {
        assert_eq!(w("", 10), vec![""]);
    }

    #[test]
    fn truncate_and_pad_count_cells() {
        assert_eq!(truncate("日本語テキスト", 7), "日本語…");
        assert_eq!(pad("한국", 6), "한국  ");
        assert_eq!(str_width(&pad("日本語テキスト", 7)), 7);
    }
}
