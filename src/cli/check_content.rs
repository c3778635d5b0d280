//! `check [--stats] [--no-labs]`: every problem of a content tree, and for a pack its labs
//! proven in the sandbox.

use std::io::{self, Write};

use clap::{Arg, ArgMatches};

use super::Define::Args;
use super::Runs::Alone;
use super::arg_kit::ArgKit;
use super::content_source::{print_diagnostics, read_tree};
use super::{Ctx, EXIT_FAIL, EXIT_OK, Sub};
use crate::content::{self, Diagnostics};
use crate::i18n::I18n;
use crate::lang::Lang;

pub(super) const SUB: Sub = Sub::new("check", Args("cli-check", args), Alone(run));

fn args(a: &ArgKit) -> Vec<Arg> {
    vec![
        a.flag("stats", "cli-check-stats"),
        a.flag("no-labs", "classroom-cli-no-labs"),
    ]
}

/// `check` reads the tree itself: a tree with errors is what it is for.
fn run(cx: Ctx, m: &ArgMatches) -> i32 {
    cmd_check(
        &cx.i18n,
        cx.content_dir,
        m.get_flag("stats"),
        !m.get_flag("no-labs"),
    )
}

/// The course-wide answer cue, after the summary: how often the right option is the longest
/// (ties counted) in each language the pack promises. (Where it sits among the options is no
/// cue: they are shown shuffled.)
fn print_cues(i18n: &I18n, quizzes: &[content::model::Quiz], langs: &[Lang], out: &mut impl Write) {
    let cues = content::option_stats::Cues::of(quizzes);
    if cues.questions == 0 {
        return;
    }
    let longest: Vec<String> = langs
        .iter()
        .map(|&l| format!("{} {}", l.code(), cues.share(cues.longest[l as usize])))
        .collect();
    let line = i18n.ta(
        "check-cues-longest",
        &[("shares", longest.join(", ").into())],
    );
    let _ = writeln!(out, "{line}");
}

/// What running the pack's labs found: the scripts run, the scripts no lab claims, the failures.
fn print_proof(i18n: &I18n, proof: &crate::proof::Proof, out: &mut impl Write) -> io::Result<()> {
    for (lab, n) in &proof.ran {
        writeln!(
            out,
            "{}",
            i18n.ta(
                "classroom-check-scripts-ran",
                &[("lab", lab.as_str().into()), ("count", (*n).into())]
            )
        )?;
    }
    for path in &proof.unmatched {
        writeln!(
            out,
            "{}",
            i18n.ta(
                "classroom-check-unmatched",
                &[("path", path.as_str().into())]
            )
        )?;
    }
    for f in &proof.failures {
        writeln!(
            out,
            "{}: {}",
            f.place,
            i18n.ta(
                "classroom-check-lab-failed",
                &[
                    ("lab", f.lab.as_str().into()),
                    ("what", f.what.as_str().into()),
                    ("reason", f.reason.as_str().into())
                ]
            )
        )?;
    }
    Ok(())
}

/// `check [--stats] [--no-labs]`: every problem of a content tree; for a pack, also builds
/// every lab's machine and (without `--no-labs`) runs its solution and scripts in the sandbox.
fn cmd_check(i18n: &I18n, dir: Option<std::path::PathBuf>, stats: bool, labs: bool) -> i32 {
    let mut diags = Diagnostics::default();
    let tree = match read_tree(i18n, dir, &mut diags) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let (course, pack, load_diags) = content::load_checked(&tree);
    diags.items.extend(load_diags.items);
    crate::proof::machines(&tree, &course, &mut diags);
    diags.sort();
    let mut out = io::stdout().lock();
    let _ = print_diagnostics(i18n, &diags, &mut out);
    if stats {
        let _ = writeln!(out, "{}", i18n.t("check-stats-title"));
        let _ = write!(
            out,
            "{}",
            content::option_stats::table(
                &course.quizzes,
                &pack.languages,
                &i18n.t("check-stats-quiz"),
                &i18n.t("check-stats-course")
            )
        );
        let _ = writeln!(out, "{}\n", i18n.t("check-stats-legend"));
    }
    // Labs run before the summary: "No errors" is said only when there are none.
    let proof = if labs && !tree.is_embedded() && diags.error_count() == 0 {
        crate::proof::labs(&tree, &course, i18n, &mut |id| {
            eprintln!(
                "{}",
                i18n.ta("classroom-check-running", &[("lab", id.into())])
            );
        })
    } else {
        crate::proof::Proof::default()
    };
    let _ = print_proof(i18n, &proof, &mut out);
    let errors = diags.error_count() + proof.failures.len();
    let questions: usize = course.quizzes.iter().map(|q| q.questions.len()).sum();
    let _ = writeln!(
        out,
        "{}",
        i18n.ta(
            "check-summary",
            &[
                ("errors", errors.into()),
                (
                    "warnings",
                    (diags.warning_count() + proof.unmatched.len()).into()
                ),
                ("lessons", course.lessons.len().into()),
                ("quizzes", course.quizzes.len().into()),
                ("questions", questions.into()),
                ("terms", course.glossary.len().into()),
                ("labs", course.labs.len().into()),
            ]
        )
    );
    if let Some(rows) = content::terminology::rows(&tree) {
        let _ = writeln!(
            out,
            "{}",
            i18n.ta("check-terminology", &[("rows", rows.into())])
        );
    }
    print_cues(i18n, &course.quizzes, &pack.languages, &mut out);
    if errors > 0 { EXIT_FAIL } else { EXIT_OK }
}

#[cfg(test)]
mod tests {
    use clap::error::ErrorKind;

    use super::super::parse;

    #[test]
    fn check_flags_and_the_content_it_checks() {
        let m = parse(&["check", "--stats", "--no-labs", "--content", "pack"]).expect("parses");
        let c = m.subcommand_matches("check").expect("check");
        assert!(c.get_flag("stats") && c.get_flag("no-labs"));
        // --content is global: it reaches the top level whichever side it is written on.
        assert!(m.get_one::<std::path::PathBuf>("content").is_some());
        assert_eq!(
            parse(&["check", "--json"]).err(),
            Some(ErrorKind::UnknownArgument)
        );
    }
}
