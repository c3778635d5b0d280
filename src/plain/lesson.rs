//! A lesson as plain text.

use std::io::{self, Write};

use crate::text::write_block;
use crate::width::str_width;

use crate::content::{Course, Lesson};
use crate::i18n::I18n;
use crate::markdown;

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
