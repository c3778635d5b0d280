//! The findings for people (a list in the learner's language, each level spelled out in words
//! so a screen reader says it) and for scripts (JSON).

use std::io::{self, Write};

use serde_json::{Value, json};

use super::{Finding, Level};
use crate::i18n::I18n;
use crate::markdown::Target;

fn level_word(i18n: &I18n, level: Level) -> String {
    i18n.t(match level {
        Level::Ok => "doctor-level-ok",
        Level::Problem => "doctor-level-problem",
        Level::Unknown => "doctor-level-unknown",
    })
}

/// The command that opens what a finding teaches: `rocm-learn lab hsa-init-failed`.
fn command(t: &Target) -> Option<String> {
    match t {
        Target::Lesson(id) => Some(format!("rocm-learn lesson {id}")),
        Target::Lab(id) => Some(format!("rocm-learn lab {id}")),
        Target::Quiz(id) => Some(format!("rocm-learn quiz {id}")),
        Target::Term(_) | Target::Web(_) => None,
    }
}

/// The message with its note, if any, in the learner's language.
fn message(i18n: &I18n, f: &Finding) -> String {
    let mut s = i18n.msg(&f.msg);
    if let Some(note) = &f.note {
        s.push(' ');
        s.push_str(&crate::i18n::loc(i18n, note));
    }
    s
}

pub fn text(i18n: &I18n, findings: &[Finding], out: &mut impl Write) -> io::Result<()> {
    text_titled(i18n, "doctor-title", findings, out)
}

/// The findings under the title with message id `title` (`doctor --labs` has its own).
pub fn text_titled(
    i18n: &I18n,
    title: &str,
    findings: &[Finding],
    out: &mut impl Write,
) -> io::Result<()> {
    writeln!(out, "{}", i18n.t(title))?;
    writeln!(out)?;
    // One cause often shows on several floors (a login without its new group cannot open
    // /dev/kfd nor the render node): the fix is spelled out once.
    let mut fixes_shown: Vec<String> = Vec::new();
    for f in findings {
        writeln!(out, "[{}] {}", level_word(i18n, f.level), i18n.msg(&f.msg))?;
        if let Some(note) = &f.note {
            writeln!(out, "    {}", crate::i18n::loc(i18n, note))?;
        }
        if let Some(fix) = &f.fix {
            let fix = i18n.msg(fix);
            let line = if fixes_shown.contains(&fix) {
                i18n.t("doctor-fix-same")
            } else {
                let line = i18n.ta("doctor-fix", &[("text", fix.as_str().into())]);
                fixes_shown.push(fix);
                line
            };
            writeln!(out, "    {line}")?;
        }
        if let Some(cmd) = f.teaches.as_ref().and_then(command) {
            writeln!(
                out,
                "    {}",
                i18n.ta("doctor-learn-more", &[("command", cmd.into())])
            )?;
        }
    }
    let count = |l: Level| findings.iter().filter(|f| f.level == l).count();
    writeln!(out)?;
    writeln!(
        out,
        "{}",
        i18n.ta(
            "doctor-summary",
            &[
                ("problems", count(Level::Problem).into()),
                ("ok", count(Level::Ok).into()),
                ("unknown", count(Level::Unknown).into()),
            ]
        )
    )
}

fn teaches_json(t: &Target) -> Value {
    match t {
        Target::Lesson(id) => json!({ "kind": "lesson", "id": id }),
        Target::Lab(id) => json!({ "kind": "lab", "id": id }),
        Target::Quiz(id) => json!({ "kind": "quiz", "id": id }),
        Target::Term(_) | Target::Web(_) => Value::Null,
    }
}

pub fn json(i18n: &I18n, findings: &[Finding]) -> Value {
    json!({
        "lang": i18n.lang().code(),
        "findings": findings.iter().map(|f| json!({
            "id": f.id,
            "level": f.level.name(),
            "message": message(i18n, f),
            "fix": f.fix.as_ref().map(|m| i18n.msg(m)),
            "teaches": f.teaches.as_ref().map_or(Value::Null, teaches_json),
        })).collect::<Vec<_>>(),
    })
}
