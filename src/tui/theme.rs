//! Colours and drawing characters. Only the terminal's named colours are used, never RGB, so the
//! palette follows the user's light or dark scheme; selection is reverse video, which reads on
//! both. `NO_COLOR` drops colour (bold, underline and reverse remain), and the ASCII mode
//! replaces box drawing for terminals that draw ambiguous-width symbols two cells wide.

use ratatui::style::{Color, Modifier, Style};

use crate::content::Category;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    pub color: bool,
    pub ascii: bool,
}

/// Box-drawing characters for one mode.
pub struct Glyphs {
    pub h: &'static str,
    pub v: &'static str,
    pub tl: &'static str,
    pub tr: &'static str,
    pub bl: &'static str,
    pub br: &'static str,
    pub tee_l: &'static str,
    pub tee_r: &'static str,
    pub roof: &'static str,
    pub car: &'static str,
    pub up: &'static str,
    pub down: &'static str,
    pub right: &'static str,
    pub wrong: &'static str,
    pub bullet: &'static str,
    pub pointer: &'static str,
    /// Something still to do (a question not yet answered).
    pub todo: &'static str,
    /// Text cut short.
    pub ellipsis: &'static str,
    /// Separates two parts of a line ("Application · places the order").
    pub dot: &'static str,
}

const UNICODE: Glyphs = Glyphs {
    h: "─",
    v: "│",
    tl: "┌",
    tr: "┐",
    bl: "└",
    br: "┘",
    tee_l: "├",
    tee_r: "┤",
    roof: "▁",
    car: "■",
    up: "▲",
    down: "▼",
    right: "✓",
    wrong: "✗",
    bullet: "•",
    pointer: "▶",
    todo: "·",
    ellipsis: "…",
    dot: "·",
};

const ASCII: Glyphs = Glyphs {
    h: "-",
    v: "|",
    tl: "+",
    tr: "+",
    bl: "+",
    br: "+",
    tee_l: "+",
    tee_r: "+",
    roof: "_",
    car: "#",
    up: "^",
    down: "v",
    right: "+",
    wrong: "x",
    bullet: "*",
    pointer: ">",
    todo: ".",
    ellipsis: "...",
    dot: "-",
};

impl Theme {
    /// From the environment: `NO_COLOR` (any value) turns colour off; `ROCM_LEARN_ASCII=1`
    /// starts in ASCII mode.
    pub fn from_env() -> Self {
        Theme {
            color: std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
            ascii: std::env::var("ROCM_LEARN_ASCII").is_ok_and(|v| v == "1"),
        }
    }

    pub fn glyphs(&self) -> &'static Glyphs {
        if self.ascii { &ASCII } else { &UNICODE }
    }

    /// A text of the app's own (a key label, a key hint line) as this mode draws it: in ASCII
    /// mode arrows become words and the ambiguous-width signs become ASCII, because those are
    /// what a terminal may draw two cells wide.
    pub fn chrome<'a>(&self, s: &'a str) -> std::borrow::Cow<'a, str> {
        if !self.ascii || s.is_ascii() {
            return s.into();
        }
        let mut out = String::with_capacity(s.len() + 8);
        let mut chars = s.chars().peekable();
        while let Some(c) = chars.next() {
            let word = match c {
                '↑' if chars.peek() == Some(&'↓') => {
                    chars.next();
                    if chars.peek() == Some(&'←') {
                        chars.next();
                        chars.next();
                        "arrows"
                    } else {
                        "Up/Down"
                    }
                }
                '←' if chars.peek() == Some(&'→') => {
                    chars.next();
                    "Left/Right"
                }
                '↑' => "Up",
                '↓' => "Down",
                '←' => "Left",
                '→' => "Right",
                '·' => "-",
                '…' => "...",
                '›' => ">",
                '•' => "*",
                '✓' => "+",
                '✗' => "x",
                '×' => "x",
                other => {
                    out.push(other);
                    continue;
                }
            };
            out.push_str(word);
        }
        out.into()
    }

    fn fg(&self, c: Color) -> Style {
        if self.color {
            Style::new().fg(c)
        } else {
            Style::new()
        }
    }

    pub fn text(&self) -> Style {
        Style::new()
    }

    pub fn dim(&self) -> Style {
        // DarkGray vanishes on some dark schemes; DIM keeps the user's colour.
        Style::new().add_modifier(Modifier::DIM)
    }

    pub fn title(&self) -> Style {
        self.fg(Color::Cyan).add_modifier(Modifier::BOLD)
    }

    pub fn heading(&self, level: u8) -> Style {
        match level {
            1 => self
                .fg(Color::Cyan)
                .add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            2 => self.fg(Color::Cyan).add_modifier(Modifier::BOLD),
            _ => Style::new().add_modifier(Modifier::BOLD),
        }
    }

    pub fn selected(&self) -> Style {
        Style::new().add_modifier(Modifier::REVERSED)
    }

    pub fn key(&self) -> Style {
        self.fg(Color::Yellow).add_modifier(Modifier::BOLD)
    }

    pub fn good(&self) -> Style {
        self.fg(Color::Green).add_modifier(Modifier::BOLD)
    }

    pub fn bad(&self) -> Style {
        self.fg(Color::Red).add_modifier(Modifier::BOLD)
    }

    pub fn code(&self) -> Style {
        self.fg(Color::Green)
    }

    pub fn link(&self) -> Style {
        self.fg(Color::Blue).add_modifier(Modifier::UNDERLINED)
    }

    pub fn gauge(&self) -> Style {
        self.fg(Color::Green)
    }

    pub fn border(&self) -> Style {
        Style::new()
    }

    /// Glossary terms are coloured by category (and underlined without colour).
    pub fn term(&self, cat: Category) -> Style {
        let c = match cat {
            Category::Application => Color::Magenta,
            Category::Architecture => Color::Yellow,
            Category::OperatingSystem => Color::Cyan,
            Category::Language => Color::Green,
            Category::License => Color::Blue,
            Category::Device => Color::Red,
        };
        self.fg(c).add_modifier(Modifier::UNDERLINED)
    }

    /// The floor colours of the building, top to bottom.
    pub fn floor(&self, level: u8) -> Style {
        let c = match level {
            5 => Color::Magenta,
            4 => Color::Yellow,
            3 => Color::Cyan,
            2 => Color::Green,
            _ => Color::Red,
        };
        self.fg(c)
    }
}
