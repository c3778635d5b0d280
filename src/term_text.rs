//! Text as a terminal would show it, from the bytes a program wrote to it: escape sequences of
//! every kind (colours, character sets, cursor keys, titles) parsed by `vte` and dropped, a
//! bare carriage return rewinding its line, a backspace taking back a character. Used for lab
//! transcripts and for the output of real tools the doctor quotes.

use vte::{Parser, Perform};

/// The plain text of `bytes` written to a terminal.
pub fn plain(bytes: &[u8]) -> String {
    let mut text = Text::default();
    Parser::new().advance(&mut text, bytes);
    text.out.push_str(&text.line);
    text.out
}

#[derive(Default)]
struct Text {
    out: String,
    line: String,
    /// A carriage return not (yet) followed by a line feed: the next character starts the
    /// line again, as a progress bar redraws itself.
    rewind: bool,
}

impl Perform for Text {
    fn print(&mut self, c: char) {
        if std::mem::take(&mut self.rewind) {
            self.line.clear();
        }
        self.line.push(c);
    }

    fn execute(&mut self, byte: u8) {
        match byte {
            b'\n' => {
                self.rewind = false;
                self.out.push_str(&self.line);
                self.out.push('\n');
                self.line.clear();
            }
            b'\r' => self.rewind = true,
            b'\t' => self.print('\t'),
            0x08 => {
                self.line.pop();
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::plain;

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
}
