//! A lesson as plain text.

use std::io::{self, Write};

use crate::width::{pad_to, str_width};

use crate::content::{Course, Lesson};
use crate::i18n::I18n;
use crate::markdown::{self, Block, Inline, Target};

pub fn render(
    course: &Course,
    lesson: &Lesson,
    i18n: &I18n,
    out: &mut impl Write,
) -> io::Result<()> {
    let lang = i18n.lang();
    let title = super::loc(i18n, &lesson.title);
    writeln!(out, "{title}")?;
    writeln!(out, "{}", "=".repeat(str_width(&title).max(3)))?;
    let (body, used) = lesson.body.resolve(lang);
    if used != lang {
        writeln!(
            out,
            "{}",
            i18n.ta("lesson-fallback", &[("lang", used.code().into())])
        )?;
    }
    writeln!(out)?;
    let mut terms = Vec::new();
    for block in markdown::parse(body) {
        write_block(&block, "", i18n, &mut terms, out)?;
    }
    if !terms.is_empty() {
        writeln!(out, "{}", i18n.t("lesson-terms-heading"))?;
        for id in terms {
            if let Some(t) = course.term(&id) {
                writeln!(
                    out,
                    "  {} ({}): {}",
                    t.name.get(lang),
                    i18n.t(t.category.msg_id()),
                    super::loc(i18n, &t.definition)
                )?;
            }
        }
        writeln!(out)?;
    }
    if let Some(q) = &lesson.quiz {
        writeln!(
            out,
            "{}",
            i18n.ta("lesson-next-quiz", &[("id", q.as_str().into())])
        )?;
    }
    for lab in &lesson.labs {
        writeln!(
            out,
            "{}",
            i18n.ta("lesson-next-lab", &[("id", lab.as_str().into())])
        )?;
    }
    Ok(())
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

pub(super) fn write_block(
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
