//! Markdown as plain text, the way plain mode prints lessons: no backticks or asterisks, lists
//! as lists, tables lined up in cells. The quiz's `--json`, plain mode and the app's quiz
//! review all use it, so it lives outside any front end.

use std::io::{self, Write};

use crate::content::Localized;
use crate::i18n::{I18n, loc};
use crate::markdown::{Block, Inline, Target};
use crate::width::{pad_to, str_width};

/// A Markdown text (a quiz prompt, option or explanation, a briefing, a hint) as plain text.
pub fn markdown(i18n: &I18n, src: &str) -> String {
    let mut out = Vec::new();
    let mut terms = Vec::new();
    for block in crate::markdown::parse(src) {
        // Writing to a Vec cannot fail.
        let _ = write_block(&block, "", i18n, &mut terms, &mut out);
    }
    String::from_utf8_lossy(&out).trim_end().to_string()
}

/// A content text in the learner's language, rendered from Markdown to plain text.
pub fn loc_md(i18n: &I18n, text: &Localized) -> String {
    markdown(i18n, &loc(i18n, text))
}

fn inline_text(inl: &[Inline], i18n: &I18n, terms: &mut Vec<String>) -> String {
    let mut s = String::new();
    for i in inl {
        match i {
            Inline::Text { text, .. } => s.push_str(text),
            Inline::Break => s.push('\n'),
            Inline::Link { text, target } => {
                s.push_str(text);
                match target {
                    Target::Term(id) => {
                        if !terms.contains(id) {
                            terms.push(id.clone());
                        }
                    }
                    Target::Web(url) => s.push_str(&format!(" <{url}>")),
                    Target::Lesson(id) => s.push_str(&format!(
                        " ({})",
                        i18n.ta("link-lesson", &[("id", id.as_str().into())])
                    )),
                    Target::Quiz(id) => s.push_str(&format!(
                        " ({})",
                        i18n.ta("link-quiz", &[("id", id.as_str().into())])
                    )),
                    Target::Lab(id) => s.push_str(&format!(
                        " ({})",
                        i18n.ta("link-lab", &[("id", id.as_str().into())])
                    )),
                }
            }
        }
    }
    s
}

/// Writes one Markdown block as plain text, indented; glossary terms it links are collected
/// in `terms` (the lesson lists them at its end).
pub fn write_block(
    block: &Block,
    indent: &str,
    i18n: &I18n,
    terms: &mut Vec<String>,
    out: &mut impl Write,
) -> io::Result<()> {
    match block {
        Block::Heading { level, text } => {
            let t = inline_text(text, i18n, terms);
            writeln!(out, "{indent}{t}")?;
            let under = if *level <= 1 { "=" } else { "-" };
            writeln!(out, "{indent}{}", under.repeat(str_width(&t).max(3)))?;
            writeln!(out)?;
        }
        Block::Paragraph(p) => {
            for line in inline_text(p, i18n, terms).lines() {
                writeln!(out, "{indent}{line}")?;
            }
            writeln!(out)?;
        }
        Block::List { start, items } => {
            for (n, item) in items.iter().enumerate() {
                let marker = match start {
                    Some(s) => format!("{}. ", s + n as u64),
                    None => "- ".to_string(),
                };
                let mut buf = Vec::new();
                let inner = format!("{indent}{}", " ".repeat(marker.len()));
                for b in item {
                    write_block(b, &inner, i18n, terms, &mut buf)?;
                }
                let text = String::from_utf8_lossy(&buf);
                // Tight lists: drop the blank lines paragraphs add inside an item.
                let mut lines = text.lines().filter(|l| !l.trim().is_empty());
                if let Some(first) = lines.next() {
                    writeln!(out, "{indent}{marker}{}", first.trim_start())?;
                }
                for l in lines {
                    writeln!(out, "{l}")?;
                }
            }
            writeln!(out)?;
        }
        Block::Code { text, .. } => {
            for line in text.lines() {
                writeln!(out, "{indent}    {line}")?;
            }
            writeln!(out)?;
        }
        Block::Quote(blocks) => {
            let inner = format!("{indent}  ");
            writeln!(out, "{indent}{}", i18n.t("lesson-note"))?;
            for b in blocks {
                write_block(b, &inner, i18n, terms, out)?;
            }
        }
        Block::Table { head, rows } => {
            let cells = |r: &Vec<Vec<Inline>>, terms: &mut Vec<String>| -> Vec<String> {
                r.iter().map(|c| inline_text(c, i18n, terms)).collect()
            };
            let mut all = vec![cells(head, terms)];
            for r in rows {
                all.push(cells(r, terms));
            }
            let cols = all.iter().map(Vec::len).max().unwrap_or(0);
            let widths: Vec<usize> = (0..cols)
                .map(|c| {
                    all.iter()
                        .filter_map(|r| r.get(c))
                        .map(|s| str_width(s))
                        .max()
                        .unwrap_or(0)
                })
                .collect();
            for (i, row) in all.iter().enumerate() {
                let line: Vec<String> = (0..cols)
                    .map(|c| {
                        let s = row.get(c).map(String::as_str).unwrap_or("");
                        pad_to(s, widths[c])
                    })
                    .collect();
                writeln!(out, "{indent}{}", line.join(" | ").trim_end())?;
                if i == 0 {
                    let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
                    writeln!(out, "{indent}{}", rule.join("-+-"))?;
                }
            }
            writeln!(out)?;
        }
        Block::Rule => {
            writeln!(out, "{indent}----")?;
            writeln!(out)?;
        }
    }
    Ok(())
}
