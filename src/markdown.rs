//! Lesson Markdown as a small block model, shared by the plain reader and the app's reader.
//!
//! Only what lessons use: headings, paragraphs, lists, code blocks, tables, rules, block quotes
//! (shown as notes), emphasis, inline code, and links (web links and `term:`/`lesson:`/`quiz:`/
//! `lab:` links into the course).

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    Heading {
        level: u8,
        text: Vec<Inline>,
    },
    Paragraph(Vec<Inline>),
    /// A list; `start` is the first number of an ordered list.
    List {
        start: Option<u64>,
        items: Vec<Vec<Block>>,
    },
    Code {
        lang: String,
        text: String,
    },
    Quote(Vec<Block>),
    Table {
        head: Vec<Vec<Inline>>,
        rows: Vec<Vec<Vec<Inline>>>,
    },
    Rule,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inline {
    Text { text: String, style: Style },
    Link { text: String, target: Target },
    Break,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Style {
    pub emphasis: bool,
    pub strong: bool,
    pub code: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    Term(String),
    Lesson(String),
    Quiz(String),
    Lab(String),
    Web(String),
}

impl Target {
    fn parse(url: &str) -> Target {
        match url.split_once(':') {
            Some(("term", id)) => Target::Term(id.to_string()),
            Some(("lesson", id)) => Target::Lesson(id.to_string()),
            Some(("quiz", id)) => Target::Quiz(id.to_string()),
            Some(("lab", id)) => Target::Lab(id.to_string()),
            _ => Target::Web(url.to_string()),
        }
    }
}

/// Plain text of a run of inlines.
pub fn plain(inlines: &[Inline]) -> String {
    let mut s = String::new();
    for i in inlines {
        match i {
            Inline::Text { text, .. } | Inline::Link { text, .. } => s.push_str(text),
            Inline::Break => s.push('\n'),
        }
    }
    s
}

pub fn parse(src: &str) -> Vec<Block> {
    let mut b = Builder::default();
    for event in Parser::new_ext(src, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH) {
        b.event(event);
    }
    b.finish()
}

/// Open containers while walking the event stream.
enum Frame {
    Quote(Vec<Block>),
    List {
        start: Option<u64>,
        items: Vec<Vec<Block>>,
    },
    Item(Vec<Block>),
}

#[derive(Default)]
struct Builder {
    out: Vec<Block>,
    stack: Vec<Frame>,
    inlines: Vec<Inline>,
    style: Style,
    link: Option<(String, String)>,
    heading: Option<u8>,
    code: Option<(String, String)>,
    table: Option<TableState>,
}

type Cell = Vec<Inline>;

/// A table being read: header cells, finished rows, the row being filled.
#[derive(Default)]
struct TableState {
    head: Vec<Cell>,
    rows: Vec<Vec<Cell>>,
    row: Vec<Cell>,
}

impl Builder {
    fn push_block(&mut self, block: Block) {
        match self.stack.last_mut() {
            Some(Frame::Quote(v)) | Some(Frame::Item(v)) => v.push(block),
            // A list only holds items; text directly in it (tight lists) goes to a new item.
            Some(Frame::List { items, .. }) => items.push(vec![block]),
            None => self.out.push(block),
        }
    }

    fn flush_paragraph(&mut self) {
        if !self.inlines.is_empty() {
            let inl = std::mem::take(&mut self.inlines);
            self.push_block(Block::Paragraph(inl));
        }
    }

    fn text(&mut self, t: &str, code: bool) {
        if let Some((_, text)) = &mut self.code {
            text.push_str(t);
            return;
        }
        if let Some((_, text)) = &mut self.link {
            text.push_str(t);
            return;
        }
        let style = Style { code, ..self.style };
        if let Some(Inline::Text { text, style: s }) = self.inlines.last_mut()
            && *s == style
        {
            text.push_str(t);
            return;
        }
        self.inlines.push(Inline::Text {
            text: t.to_string(),
            style,
        });
    }

    fn event(&mut self, event: Event) {
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(t) => self.text(&t, false),
            Event::Code(t) => self.text(&t, true),
            Event::SoftBreak => self.text(" ", false),
            Event::HardBreak => self.inlines.push(Inline::Break),
            Event::Rule => {
                self.flush_paragraph();
                self.push_block(Block::Rule);
            }
            // HTML, footnotes, math: not used by lessons; keep their text visible rather than lose it.
            Event::Html(t) | Event::InlineHtml(t) => self.text(&t, false),
            _ => {}
        }
    }

    fn start(&mut self, tag: Tag) {
        match tag {
            Tag::Paragraph => {}
            Tag::Heading { level, .. } => {
                self.flush_paragraph();
                self.heading = Some(match level {
                    HeadingLevel::H1 => 1,
                    HeadingLevel::H2 => 2,
                    HeadingLevel::H3 => 3,
                    _ => 4,
                });
            }
            Tag::BlockQuote(_) => {
                self.flush_paragraph();
                self.stack.push(Frame::Quote(Vec::new()));
            }
            Tag::CodeBlock(kind) => {
                self.flush_paragraph();
                let lang = match kind {
                    CodeBlockKind::Fenced(l) => l.to_string(),
                    CodeBlockKind::Indented => String::new(),
                };
                self.code = Some((lang, String::new()));
            }
            Tag::List(start) => {
                self.flush_paragraph();
                self.stack.push(Frame::List {
                    start,
                    items: Vec::new(),
                });
            }
            Tag::Item => self.stack.push(Frame::Item(Vec::new())),
            Tag::Table(_) => {
                self.flush_paragraph();
                self.table = Some(TableState::default());
            }
            Tag::TableHead | Tag::TableRow | Tag::TableCell => {}
            Tag::Emphasis => self.style.emphasis = true,
            Tag::Strong => self.style.strong = true,
            Tag::Link { dest_url, .. } => self.link = Some((dest_url.to_string(), String::new())),
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph => self.flush_paragraph(),
            TagEnd::Heading(_) => {
                let text = std::mem::take(&mut self.inlines);
                let level = self.heading.take().unwrap_or(1);
                self.push_block(Block::Heading { level, text });
            }
            TagEnd::BlockQuote(_) => {
                self.flush_paragraph();
                if let Some(Frame::Quote(v)) = self.stack.pop() {
                    self.push_block(Block::Quote(v));
                }
            }
            TagEnd::CodeBlock => {
                if let Some((lang, text)) = self.code.take() {
                    self.push_block(Block::Code { lang, text });
                }
            }
            TagEnd::List(_) => {
                self.flush_paragraph();
                if let Some(Frame::List { start, items }) = self.stack.pop() {
                    self.push_block(Block::List { start, items });
                }
            }
            TagEnd::Item => {
                self.flush_paragraph();
                if let Some(Frame::Item(v)) = self.stack.pop()
                    && let Some(Frame::List { items, .. }) = self.stack.last_mut()
                {
                    items.push(v);
                }
            }
            TagEnd::TableCell => {
                let cell = std::mem::take(&mut self.inlines);
                if let Some(t) = &mut self.table {
                    t.row.push(cell);
                }
            }
            TagEnd::TableHead => {
                if let Some(t) = &mut self.table {
                    t.head = std::mem::take(&mut t.row);
                }
            }
            TagEnd::TableRow => {
                if let Some(t) = &mut self.table {
                    let row = std::mem::take(&mut t.row);
                    t.rows.push(row);
                }
            }
            TagEnd::Table => {
                if let Some(TableState { head, rows, .. }) = self.table.take() {
                    self.push_block(Block::Table { head, rows });
                }
            }
            TagEnd::Emphasis => self.style.emphasis = false,
            TagEnd::Strong => self.style.strong = false,
            TagEnd::Link => {
                if let Some((url, text)) = self.link.take() {
                    self.inlines.push(Inline::Link {
                        text,
                        target: Target::parse(&url),
                    });
                }
            }
            _ => {}
        }
    }

    fn finish(mut self) -> Vec<Block> {
        self.flush_paragraph();
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_elements_lessons_use() {
        let doc = parse(
            "# Title\n\nSome *text* with [KFD](term:kfd) and `code`.\n\n- one\n- two\n\n```bash\nrocminfo\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
        );
        assert_eq!(
            doc[0],
            Block::Heading {
                level: 1,
                text: vec![Inline::Text {
                    text: "Title".into(),
                    style: Style::default()
                }]
            }
        );
        let Block::Paragraph(p) = &doc[1] else {
            panic!("{doc:?}")
        };
        assert!(p.contains(&Inline::Link {
            text: "KFD".into(),
            target: Target::Term("kfd".into())
        }));
        assert_eq!(plain(p), "Some text with KFD and code.");
        let Block::List { start: None, items } = &doc[2] else {
            panic!("{doc:?}")
        };
        assert_eq!(items.len(), 2);
        assert_eq!(
            doc[3],
            Block::Code {
                lang: "bash".into(),
                text: "rocminfo\n".into()
            }
        );
        let Block::Table { head, rows } = &doc[4] else {
            panic!("{doc:?}")
        };
        assert_eq!(head.len(), 2);
        assert_eq!(plain(&rows[0][1]), "2");
    }
}
