//! Text measured in terminal cells: the one width, cut and pad used by the app, the
//! command-line tables and the simulated tools, so that they never disagree on a wide
//! (Japanese, Korean) or zero-width character.

use unicode_width::UnicodeWidthChar;

/// Terminal cells of a character; control characters take none.
pub fn cell_width(c: char) -> usize {
    c.width().unwrap_or(0)
}

/// Terminal cells of a string.
pub fn str_width(s: &str) -> usize {
    s.chars().map(cell_width).sum()
}

/// Terminal cells of the widest text, 0 when there is none: a column's width.
pub fn widest<'a>(texts: impl IntoIterator<Item = &'a str>) -> usize {
    texts.into_iter().map(str_width).max().unwrap_or(0)
}

thread_local! {
    /// Cut text ends in `...` instead of `…` while the app draws in ASCII mode. Set per draw
    /// (`set_ascii`) rather than passed to every `truncate`/`pad` caller; per thread, so tests
    /// drawing in parallel do not see each other's mode.
    static ASCII: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Draws cut text with ASCII dots from now on in this thread (the app calls it for each frame).
pub fn set_ascii(ascii: bool) {
    ASCII.with(|a| a.set(ascii));
}

/// Cuts `s` to at most `width` cells, adding `…` (`...` in ASCII mode) when something was cut.
pub fn truncate(s: &str, width: usize) -> String {
    if str_width(s) <= width {
        return s.to_string();
    }
    if width == 0 {
        return String::new();
    }
    let mark = if ASCII.with(std::cell::Cell::get) && width >= 4 {
        "..."
    } else if ASCII.with(std::cell::Cell::get) {
        "."
    } else {
        "…"
    };
    let room = width - str_width(mark);
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        let w = cell_width(c);
        if used + w > room {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push_str(mark);
    out
}

/// Pads `s` with spaces to exactly `width` cells (truncating if longer).
pub fn pad(s: &str, width: usize) -> String {
    pad_to(&truncate(s, width), width)
}

/// Pads `s` with spaces to at least `width` cells, never cutting it (`printf "%-*s"` for
/// output that must match a real tool's, where a long value pushes the next column).
pub fn pad_to(s: &str, width: usize) -> String {
    format!("{s}{}", " ".repeat(width.saturating_sub(str_width(s))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_characters_take_two_cells_when_padding_and_cutting() {
        assert_eq!(str_width("進捗"), 4);
        assert_eq!(pad("進捗", 6), "進捗  ");
        assert_eq!(pad("진행 상황", 5), "진행…");
        assert_eq!(pad_to("°C", 4), "°C  ");
        assert_eq!(pad_to("Non-terminated Pods:", 4), "Non-terminated Pods:");
    }
}
