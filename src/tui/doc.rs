//! Lays out a lesson for the reader: wrapped, styled lines, plus where each link and heading is,
//! so the reader can scroll to headings, move focus between links and hit-test mouse clicks.

use ratatui::style::{Modifier, Style};

use super::theme::Theme;
use super::wrap::{Seg, str_width, wrap};
use crate::content::Course;
use crate::markdown::{Block, Inline, Target};

#[derive(Debug, Clone)]
pub struct Link {
    pub target: Target,
    pub text: String,
    /// First line the link appears on.
    pub line: usize,
}

#[derive(Debug, Clone)]
pub struct Heading {
    pub line: usize,
    pub level: u8,
    pub text: String,
}

#[derive(Debug, Clone, Default)]
pub struct Doc {
    pub lines: Vec<Vec<Seg>>,
    pub links: Vec<Link>,
    pub headings: Vec<Heading>,
}

pub fn layout(blocks: &[Block], width: usize, course: &Course, theme: &Theme) -> Doc {
    let mut l = Layout {
        doc: Doc::default(),
        course,
        theme,
        base: theme.text(),
    };
    let width = width.max(8);
    for (i, b) in blocks.iter().enumerate() {
        if i > 0
            && matches!(b, Block::Heading { .. })
            && l.doc.lines.last().is_some_and(|x| !x.is_empty())
        {
            l.doc.lines.push(Vec::new());
        }
        l.block(b, width, &[], &[]);
    }
    // Trailing blank lines add nothing but scroll distance.
    while l.doc.lines.last().is_some_and(Vec::is_empty) {
        l.doc.lines.pop();
    }
    l.doc
}

/// The one way the app shows a text a learner reads outside the reader (a quiz prompt, option
/// or explanation, a lab briefing or hint, a glossary definition): its Markdown laid out to
/// `width` cells, plain text in `base` style, the first line prefixed by `first` and the others
/// by `rest` (a list marker and its hanging indent, a quote bar). Links keep their style but
/// are not followable here.
pub fn text(
    src: &str,
    width: usize,
    course: &Course,
    theme: &Theme,
    base: Style,
    first: &[Seg],
    rest: &[Seg],
) -> Vec<Vec<Seg>> {
    let mut l = Layout {
        doc: Doc::default(),
        course,
        theme,
        base,
    };
    let blocks = crate::markdown::parse(src);
    for (i, b) in blocks.iter().enumerate() {
        if i > 0 {
            l.blank();
        }
        l.block(b, width.max(4), if i == 0 { first } else { rest }, rest);
    }
    while l.doc.lines.last().is_some_and(Vec::is_empty) {
        l.doc.lines.pop();
    }
    // Blank lines inside the text keep the prefix, so a quote bar or an indent does not break.
    let indent_only = rest.iter().all(|s| s.text.trim().is_empty());
    for line in &mut l.doc.lines {
        if line.is_empty() && !indent_only {
            *line = rest.to_vec();
        }
    }
    if l.doc.lines.is_empty() && !first.is_empty() {
        l.doc.lines.push(first.to_vec());
    }
    l.doc.lines
}

/// [`text`] as ratatui lines, for pop-ups and panes.
pub fn text_lines(
    src: &str,
    width: usize,
    course: &Course,
    theme: &Theme,
    base: Style,
) -> Vec<ratatui::text::Line<'static>> {
    text(src, width, course, theme, base, &[], &[])
        .iter()
        .map(|l| super::widgets::to_line(l, None))
        .collect()
}

/// A course text (a briefing, a description, a definition) in the learner's language, as
/// [`text_lines`] lays it out in the plain text style: what every pane and pop-up shows of one.
pub fn course_text(
    cx: &super::view::Cx,
    text: &crate::content::Localized,
    width: usize,
) -> Vec<ratatui::text::Line<'static>> {
    text_lines(&cx.loc(text), width, cx.course, cx.theme, cx.theme.text())
}

struct Layout<'a> {
    doc: Doc,
    course: &'a Course,
    theme: &'a Theme,
    /// Style of plain paragraph text.
    base: Style,
}

impl Layout<'_> {
    fn segs(&mut self, inl: &[Inline], base: Style) -> Vec<Seg> {
        let mut out = Vec::new();
        for i in inl {
            match i {
                Inline::Text { text, style } => {
                    let mut s = base;
                    if style.strong {
                        s = s.add_modifier(Modifier::BOLD);
                    }
                    if style.emphasis {
                        s = s.add_modifier(Modifier::ITALIC);
                    }
                    if style.code {
                        s = s.patch(self.theme.code());
                    }
                    out.push(Seg::new(text.clone(), s));
                }
                Inline::Break => out.push(Seg::new(" ", base)),
                Inline::Link { text, target } => {
                    let style = match target {
                        Target::Term(id) => self
                            .course
                            .term(id)
                            .map(|t| self.theme.term(t.category))
                            .unwrap_or_else(|| self.theme.link()),
                        _ => self.theme.link(),
                    };
                    let idx = self.doc.links.len();
                    self.doc.links.push(Link {
                        target: target.clone(),
                        text: text.clone(),
                        line: usize::MAX, // set when the line is emitted
                    });
                    out.push(Seg {
                        text: text.clone(),
                        style: base.patch(style),
                        link: Some(idx),
                    });
                }
            }
        }
        out
    }

    fn emit(&mut self, lines: Vec<Vec<Seg>>) {
        for line in lines {
            let n = self.doc.lines.len();
            for s in &line {
                if let Some(i) = s.link
                    && self.doc.links[i].line == usize::MAX
                {
                    self.doc.links[i].line = n;
                }
            }
            self.doc.lines.push(line);
        }
    }

    fn blank(&mut self) {
        if self.doc.lines.last().is_some_and(|l| !l.is_empty()) {
            self.doc.lines.push(Vec::new());
        }
    }

    fn block(&mut self, b: &Block, width: usize, first: &[Seg], rest: &[Seg]) {
        match b {
            Block::Heading { level, text } => {
                let style = self.theme.heading(*level);
                let segs = self.segs(text, style);
                self.doc.headings.push(Heading {
                    line: self.doc.lines.len(),
                    level: *level,
                    text: crate::markdown::plain(text),
                });
                let lines = wrap(&segs, width, first, rest);
                self.emit(lines);
                self.blank();
            }
            Block::Paragraph(p) => {
                let segs = self.segs(p, self.base);
                let lines = wrap(&segs, width, first, rest);
                self.emit(lines);
                self.blank();
            }
            Block::List { start, items } => {
                let g = self.theme.glyphs();
                for (n, item) in items.iter().enumerate() {
                    let marker = match start {
                        Some(s) => format!("{}. ", s + n as u64),
                        None => format!("{} ", g.bullet),
                    };
                    let pad = " ".repeat(str_width(&marker));
                    let mut f: Vec<Seg> = first.to_vec();
                    f.push(Seg::new(marker, self.theme.key()));
                    let mut r: Vec<Seg> = rest.to_vec();
                    r.push(Seg::new(pad, Style::new()));
                    for (k, inner) in item.iter().enumerate() {
                        let fst = if k == 0 { f.clone() } else { r.clone() };
                        self.block(inner, width, &fst, &r);
                        // Tight list items: no blank line between the item's paragraphs and the next item.
                        if matches!(inner, Block::Paragraph(_))
                            && self.doc.lines.last().is_some_and(Vec::is_empty)
                        {
                            self.doc.lines.pop();
                        }
                    }
                }
                self.blank();
            }
            Block::Code { text, .. } => {
                let style = self.theme.code();
                let mut f = first.to_vec();
                f.push(Seg::new("  ", style));
                let mut r = rest.to_vec();
                r.push(Seg::new("  ", style));
                for line in text.lines() {
                    let segs = [Seg::new(line, style)];
                    // A continuation of a long command line gets a deeper indent.
                    let mut cont = r.clone();
                    cont.push(Seg::new("  ", style));
                    let lines = wrap(&segs, width, &r, &cont);
                    self.emit(lines);
                }
                let _ = f;
                self.blank();
            }
            Block::Quote(blocks) => {
                let bar = format!("{} ", self.theme.glyphs().v);
                let mut f = first.to_vec();
                f.push(Seg::new(bar.clone(), self.theme.key()));
                let mut r = rest.to_vec();
                r.push(Seg::new(bar, self.theme.key()));
                for (k, inner) in blocks.iter().enumerate() {
                    self.block(inner, width, if k == 0 { &f } else { &r }, &r);
                    if self.doc.lines.last().is_some_and(Vec::is_empty) && k + 1 < blocks.len() {
                        self.doc.lines.pop();
                        self.doc.lines.push(r.clone());
                    }
                }
                self.blank();
            }
            Block::Table { head, rows } => {
                self.table(head, rows, width, rest);
                self.blank();
            }
            Block::Rule => {
                let w = width.saturating_sub(rest.iter().map(Seg::width).sum());
                let mut line = rest.to_vec();
                line.push(Seg::new(self.theme.glyphs().h.repeat(w), self.theme.dim()));
                self.emit(vec![line]);
                self.blank();
            }
        }
    }

    fn table(
        &mut self,
        head: &[Vec<Inline>],
        rows: &[Vec<Vec<Inline>>],
        width: usize,
        indent: &[Seg],
    ) {
        let cols = head.len().max(rows.iter().map(Vec::len).max().unwrap_or(0));
        if cols == 0 {
            return;
        }
        let head_style = self.theme.text().add_modifier(Modifier::BOLD);
        // The head's cells first: links are numbered in reading order.
        let head_segs = self.cells(head, cols, head_style);
        let body: Vec<Vec<Vec<Seg>>> = rows
            .iter()
            .map(|r| self.cells(r, cols, self.base))
            .collect();
        let avail = width.saturating_sub(indent.iter().map(Seg::width).sum());
        let natural = natural_widths(&head_segs, &body);
        let Some(widths) = column_widths(natural, avail) else {
            self.table_cards(&head_segs, &body, head_style, width, indent);
            return;
        };
        self.table_row(&head_segs, &widths, indent);
        self.table_rule(&widths, indent);
        for r in &body {
            self.table_row(r, &widths, indent);
        }
    }

    /// A row's `cols` cells as segments; a row short of cells gets empty ones.
    fn cells(&mut self, row: &[Vec<Inline>], cols: usize, style: Style) -> Vec<Vec<Seg>> {
        (0..cols)
            .map(|c| row.get(c).map(|x| self.segs(x, style)).unwrap_or_default())
            .collect()
    }

    /// Too narrow for columns: one "header: value" line per cell, rows separated.
    fn table_cards(
        &mut self,
        head: &[Vec<Seg>],
        body: &[Vec<Vec<Seg>>],
        head_style: Style,
        width: usize,
        indent: &[Seg],
    ) {
        for (ri, r) in body.iter().enumerate() {
            if ri > 0 {
                self.doc.lines.push(Vec::new());
            }
            for (h, cell) in head.iter().zip(r) {
                let mut segs = h.clone();
                segs.push(Seg::new(": ", head_style));
                segs.extend(cell.iter().cloned());
                let mut cont = indent.to_vec();
                cont.push(Seg::new("  ", Style::new()));
                let lines = wrap(&segs, width, indent, &cont);
                self.emit(lines);
            }
        }
    }

    /// One table row: each cell wrapped to its column, as many lines as the tallest cell.
    fn table_row(&mut self, cells: &[Vec<Seg>], widths: &[usize], indent: &[Seg]) {
        let g = self.theme.glyphs();
        let wrapped: Vec<Vec<Vec<Seg>>> = cells
            .iter()
            .zip(widths)
            .map(|(cell, w)| wrap(cell, *w, &[], &[]))
            .collect();
        let height = wrapped.iter().map(Vec::len).max().unwrap_or(1);
        let mut out = Vec::new();
        for y in 0..height {
            let mut line = indent.to_vec();
            for (c, cell) in wrapped.iter().enumerate() {
                if c > 0 {
                    line.push(Seg::new(format!(" {} ", g.v), self.theme.dim()));
                }
                let part = cell.get(y).cloned().unwrap_or_default();
                let used: usize = part.iter().map(Seg::width).sum();
                line.extend(part);
                // The last column is not padded: nothing follows it.
                if c + 1 < cells.len() {
                    line.push(Seg::new(
                        " ".repeat(widths[c].saturating_sub(used)),
                        Style::new(),
                    ));
                }
            }
            out.push(line);
        }
        self.emit(out);
    }

    /// The rule under the head, crossed where the columns meet.
    fn table_rule(&mut self, widths: &[usize], indent: &[Seg]) {
        let g = self.theme.glyphs();
        let mut rule = indent.to_vec();
        let parts: Vec<String> = widths.iter().map(|w| g.h.repeat(*w)).collect();
        rule.push(Seg::new(
            parts.join(&format!(
                "{}{}{}",
                g.h,
                if self.theme.ascii { "+" } else { "┼" },
                g.h
            )),
            self.theme.dim(),
        ));
        self.emit(vec![rule]);
    }
}

/// Each column's width with nothing wrapped (at least 1).
fn natural_widths(head: &[Vec<Seg>], body: &[Vec<Vec<Seg>>]) -> Vec<usize> {
    (0..head.len())
        .map(|c| {
            std::iter::once(&head[c])
                .chain(body.iter().map(|r| &r[c]))
                .map(|cell| cell.iter().map(Seg::width).sum::<usize>())
                .max()
                .unwrap_or(0)
                .max(1)
        })
        .collect()
}

/// The columns' widths in `avail` cells with " │ " between them: the natural ones when they fit,
/// else the widest shrunk first down to 8 cells; `None` when even that does not fit.
fn column_widths(natural: Vec<usize>, avail: usize) -> Option<Vec<usize>> {
    const SEP: usize = 3;
    const MIN_COL: usize = 8;
    let cols = natural.len();
    let total_sep = SEP * cols.saturating_sub(1);
    if natural.iter().sum::<usize>() + total_sep <= avail {
        return Some(natural);
    }
    if cols * MIN_COL + total_sep > avail {
        return None;
    }
    let mut w = natural;
    while w.iter().sum::<usize>() + total_sep > avail {
        let (i, _) = w
            .iter()
            .enumerate()
            .max_by_key(|(_, x)| **x)
            .unwrap_or((0, &0));
        if w[i] <= MIN_COL {
            break;
        }
        w[i] -= 1;
    }
    Some(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: &str = "| Floor | Who works there |\n|---|---|\n\
                         | 5F | Your [app](lesson:l1) and frameworks such as PyTorch |\n\
                         | 1F | The GPU |\n";

    /// The table laid out at `width`: each line as text, and each link with its line.
    fn table_at(src: &str, width: usize, ascii: bool) -> (Vec<String>, Vec<(String, usize)>) {
        let theme = Theme {
            color: false,
            ascii,
        };
        let doc = layout(
            &crate::markdown::parse(src),
            width,
            &Course::default(),
            &theme,
        );
        let lines = doc
            .lines
            .iter()
            .map(|l| l.iter().map(|s| s.text.as_str()).collect::<String>())
            .collect();
        let links = doc.links.iter().map(|l| (l.text.clone(), l.line)).collect();
        (lines, links)
    }

    /// Natural widths when they fit, the widest column shrunk when they do not, and one
    /// "header: value" card per row when even that is too wide; inside a quote, behind its bar.
    #[test]
    fn a_table_takes_its_natural_widths_shrinks_or_becomes_cards() {
        let quoted: String = TABLE.lines().map(|l| format!("> {l}\n")).collect();
        let cases: [(&str, usize, bool, &[&str], usize); 6] = [
            (
                TABLE,
                80,
                false,
                &[
                    "Floor │ Who works there",
                    "──────┼────────────────────────────────────────",
                    "5F    │ Your app and frameworks such as PyTorch",
                    "1F    │ The GPU",
                ],
                2,
            ),
            (
                TABLE,
                30,
                true,
                &[
                    "Floor | Who works there",
                    "------+-----------------------",
                    "5F    | Your app and",
                    "      | frameworks such as",
                    "      | PyTorch",
                    "1F    | The GPU",
                ],
                2,
            ),
            (
                TABLE,
                20,
                false,
                &[
                    "Floor │ Who works",
                    "      │ there",
                    "──────┼─────────────",
                    "5F    │ Your app and",
                    "      │ frameworks",
                    "      │ such as",
                    "      │ PyTorch",
                    "1F    │ The GPU",
                ],
                3,
            ),
            (
                TABLE,
                16,
                false,
                &[
                    "Floor: 5F",
                    "Who works there:",
                    "  Your app and",
                    "  frameworks",
                    "  such as",
                    "  PyTorch",
                    "",
                    "Floor: 1F",
                    "Who works there:",
                    "  The GPU",
                ],
                2,
            ),
            (
                &quoted,
                20,
                false,
                &[
                    "│ Floor: 5F",
                    "│ Who works there:",
                    "│   Your app and",
                    "│   frameworks such",
                    "│   as PyTorch",
                    "",
                    "│ Floor: 1F",
                    "│ Who works there:",
                    "│   The GPU",
                ],
                2,
            ),
            (
                &quoted,
                60,
                false,
                &[
                    "│ Floor │ Who works there",
                    "│ ──────┼────────────────────────────────────────",
                    "│ 5F    │ Your app and frameworks such as PyTorch",
                    "│ 1F    │ The GPU",
                ],
                2,
            ),
        ];
        for (src, width, ascii, want, link_line) in cases {
            let (lines, links) = table_at(src, width, ascii);
            assert_eq!(lines, want, "width {width}");
            assert_eq!(links, [("app".to_string(), link_line)], "width {width}");
        }
    }
}
