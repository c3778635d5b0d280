//! Text as a terminal would show it, from the bytes a program wrote to it: escape sequences of
//! every kind (colours, character sets, cursor keys, titles) parsed by `vte`; the cursor moves
//! that line editors use (carriage return, backspace, cursor up/down/left/right, column,
//! erase in line) applied to a grid of the terminal's width, whose soft-wrapped rows join
//! again into the lines the program wrote. Used for lab transcripts and for the output of real
//! tools the doctor quotes.
//!
//! Why a grid: bash's readline redraws a command longer than the terminal is wide by moving
//! the cursor up and right over it; read without those moves, the command came out as a stray
//! letter in the transcript.

use unicode_width::UnicodeWidthChar;
use vte::{Params, Parser, Perform};

pub mod sanitize;

/// The plain text of `bytes` written to a terminal wide enough never to wrap.
pub fn plain(bytes: &[u8]) -> String {
    plain_at(bytes, usize::MAX)
}

/// The plain text of `bytes` written to a terminal `cols` columns wide.
pub fn plain_at(bytes: &[u8], cols: usize) -> String {
    let mut grid = Grid::new(cols.max(2));
    Parser::new().advance(&mut grid, bytes);
    grid.text()
}

/// One screen cell: a character, or the right half of a wide one (`None`).
type Cell = Option<char>;

#[derive(Default)]
struct Row {
    cells: Vec<Cell>,
    /// The text went on past the last column: the next row continues this line.
    wrapped: bool,
    /// Zero-width characters (combining marks) after the cell at this index.
    marks: Vec<(usize, char)>,
}

struct Grid {
    width: usize,
    rows: Vec<Row>,
    row: usize,
    col: usize,
}

impl Grid {
    fn new(width: usize) -> Grid {
        Grid {
            width,
            rows: vec![Row::default()],
            row: 0,
            col: 0,
        }
    }

    fn current(&mut self) -> &mut Row {
        &mut self.rows[self.row]
    }

    fn down(&mut self, wrapped: bool) {
        self.current().wrapped |= wrapped;
        self.row += 1;
        if self.row == self.rows.len() {
            self.rows.push(Row::default());
        }
    }

    /// Writes `c` at the cursor, wrapping first when it would not fit on the row.
    fn put(&mut self, c: char, w: usize) {
        if self.col + w > self.width {
            self.down(true);
            self.col = 0;
        }
        let col = self.col;
        let row = self.current();
        if row.cells.len() < col + w {
            row.cells.resize(col + w, Some(' '));
        }
        row.cells[col] = Some(c);
        for cell in &mut row.cells[col + 1..col + w] {
            *cell = None;
        }
        row.marks.retain(|(at, _)| *at < col || *at >= col + w);
        self.col += w;
    }

    fn erase_line(&mut self, mode: u16) {
        let col = self.col;
        let row = self.current();
        match mode {
            0 => {
                row.cells.truncate(col);
                row.marks.retain(|(at, _)| *at < col);
            }
            1 => {
                let end = (col + 1).min(row.cells.len());
                row.cells[..end].fill(Some(' '));
                row.marks.retain(|(at, _)| *at > col);
            }
            _ => {
                row.cells.clear();
                row.marks.clear();
            }
        }
    }

    fn text(&self) -> String {
        let mut out = String::new();
        let mut line = String::new();
        for (i, row) in self.rows.iter().enumerate() {
            for (at, cell) in row.cells.iter().enumerate() {
                if let Some(c) = cell {
                    line.push(*c);
                }
                line.extend(row.marks.iter().filter(|(m, _)| *m == at).map(|(_, c)| c));
            }
            if row.wrapped {
                continue;
            }
            out.push_str(line.trim_end_matches(' '));
            line.clear();
            if i + 1 < self.rows.len() {
                out.push('\n');
            }
        }
        out.push_str(line.trim_end_matches(' '));
        out
    }
}

/// The first parameter of a CSI sequence, with its default when absent or zero.
fn first(params: &Params, default: u16) -> u16 {
    match params.iter().next().and_then(|p| p.first().copied()) {
        None | Some(0) => default,
        Some(n) => n,
    }
}

impl Perform for Grid {
    fn print(&mut self, c: char) {
        match c.width() {
            // A control character is not text (DEL reaches here as a printable byte).
            None => {}
            Some(0) => {
                let at = self.col.saturating_sub(1);
                self.current().marks.push((at, c));
            }
            Some(w) => self.put(c, w.min(self.width)),
        }
    }

    fn execute(&mut self, byte: u8) {
        match byte {
            // A line feed ends the line of the row it leaves, even one that wrapped before the
            // cursor came back to it (readline's redraw at the right edge).
            b'\n' => {
                self.current().wrapped = false;
                self.down(false);
                self.col = 0;
            }
            b'\r' => self.col = 0,
            // Kept as a tab (a transcript is copied from), taking the columns to the next stop.
            b'\t' => {
                let stop = (self.col / 8 + 1) * 8;
                self.put('\t', (stop - self.col).clamp(1, self.width));
            }
            0x08 => self.col = self.col.saturating_sub(1),
            _ => {}
        }
    }

    fn csi_dispatch(&mut self, params: &Params, intermediates: &[u8], _: bool, action: char) {
        if !intermediates.is_empty() {
            return;
        }
        let n = usize::from(first(params, 1));
        match action {
            'A' => self.row = self.row.saturating_sub(n),
            'B' => {
                for _ in 0..n {
                    self.down(false);
                }
            }
            'C' => self.col = (self.col + n).min(self.width - 1),
            'D' => self.col = self.col.saturating_sub(n),
            'G' => self.col = (n - 1).min(self.width - 1),
            'K' => self.erase_line(
                params
                    .iter()
                    .next()
                    .and_then(|p| p.first().copied())
                    .unwrap_or(0),
            ),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{plain, plain_at};

    #[test]
    fn a_line_ended_with_cr_lf_is_kept() {
        assert_eq!(plain(b"first\r\nsecond\r\n"), "first\nsecond\n");
    }

    #[test]
    fn tput_sgr0_leaves_no_stray_letter() {
        // `tput sgr0` on xterm: a character-set designation (ESC ( B) and a reset (ESC [ m).
        assert_eq!(plain(b"\x1b[1mbold\x1b(B\x1b[m plain\n"), "bold plain\n");
    }

    #[test]
    fn text_after_a_sequence_ending_in_a_tilde_survives() {
        assert_eq!(
            plain(b"a\x1b[3~ROCk module is loaded"),
            "aROCk module is loaded"
        );
    }

    #[test]
    fn colours_titles_and_progress_redraws_are_resolved() {
        let raw = b"\x1b[01;32mlearner@node\x1b[00m:~$ ls\r\nfile\r\n\x1b]0;title\x07done 10%\rdone 100%\r\n";
        assert_eq!(plain(raw), "learner@node:~$ ls\nfile\ndone 100%\n");
    }

    #[test]
    fn a_backspace_takes_back_the_character_before_it() {
        assert_eq!(plain(b"lss\x08 \x08\n"), "ls\n");
    }

    #[test]
    fn a_command_readline_redraws_at_the_edge_is_one_line() {
        // What bash sends when prompt and command fill a 20-column row exactly (as a long
        // `sudo tee` line did on the 120-column script terminal): a space and a return to
        // wrap, then on Enter up a row, right to the last column, that character again and a
        // new line. The transcript used to show only that last character.
        let mut raw = b"$ echo 1234567890123".to_vec();
        raw.extend_from_slice(b" \r\x1b[A");
        raw.extend(std::iter::repeat_n(b"\x1b[C", 19).flatten());
        raw.extend_from_slice(b"\x1b[K3\r\nout\r\n");
        assert_eq!(plain_at(&raw, 20), "$ echo 1234567890123\nout\n");
    }

    #[test]
    fn a_command_that_wraps_stays_one_line() {
        let raw = b"$ echo 12345678901234567890\r\nout\r\n";
        assert_eq!(plain_at(raw, 20), "$ echo 12345678901234567890\nout\n");
    }

    #[test]
    fn output_longer_than_the_terminal_stays_one_line() {
        assert_eq!(plain_at(b"abcdefghij\r\nk\r\n", 4), "abcdefghij\nk\n");
    }

    #[test]
    fn erase_in_line_and_column_moves_rewrite_what_they_touch() {
        assert_eq!(plain(b"progress 10%\r\x1b[Kdone\r\n"), "done\n");
        assert_eq!(plain(b"abcdef\x1b[3G\x1b[1K!\n"), "  !def\n");
        assert_eq!(plain(b"abc\x1b[2D\x1b[0KX\n"), "aX\n");
    }

    #[test]
    fn wide_characters_take_two_columns_and_wrap_whole() {
        // 日本 is four columns: on a five-column terminal the third wide character wraps.
        assert_eq!(plain_at("日本語\r\n".as_bytes(), 5), "日本語\n");
        assert_eq!(plain("한국어\x08\x08X\n".as_bytes()), "한국X\n");
    }

    #[test]
    fn a_tab_is_kept_as_a_tab() {
        assert_eq!(plain(b"a\tb\n"), "a\tb\n");
    }

    proptest::proptest! {
        /// Whatever a learner's program writes, at any width: no panic, no control character
        /// left in the text but newline and tab.
        #[test]
        fn any_bytes_at_any_width_give_plain_text(
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..400),
            cols in 1usize..200,
        ) {
            let text = plain_at(&bytes, cols);
            proptest::prop_assert!(
                !text.chars().any(|c| c.is_control() && c != '\n' && c != '\t'),
                "{text:?}"
            );
        }
    }
}
