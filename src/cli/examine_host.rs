//! `doctor [--json]`, `doctor --labs [--apparmor-profile]`: read-only checks of this real machine,
//! for ROCm itself or for running labs.

use std::io::{self, Write};

use clap::{Arg, ArgMatches};

use super::Define::Args;
use super::Runs::OnCourse;
use super::arg_kit::ArgKit;
use super::common::print_out;
use super::{EXIT_OK, Loaded, Sub};
use crate::content::Course;
use crate::i18n::I18n;

pub(super) const SUB: Sub = Sub::new("doctor", Args("cli-doctor", args), OnCourse(run));

fn args(a: &ArgKit) -> Vec<Arg> {
    vec![
        a.json(),
        a.flag("labs", "classroom-cli-doctor-labs"),
        a.flag("apparmor-profile", "classroom-cli-apparmor-profile")
            .requires("labs"),
    ]
}

fn run(cx: Loaded, m: &ArgMatches) -> i32 {
    if m.get_flag("apparmor-profile") {
        print_out(crate::doctor::labs::APPARMOR_PROFILE);
        EXIT_OK
    } else if m.get_flag("labs") {
        cmd_doctor_labs(&cx.i18n, m.get_flag("json"))
    } else {
        cmd_doctor(&cx.i18n, &cx.course, m.get_flag("json"))
    }
}

/// `doctor [--json]`: the lab checks on this real machine, read-only. Problems are findings, not
/// failures: the exit status is 0 whenever the checks ran.
fn cmd_doctor(i18n: &I18n, course: &Course, json: bool) -> i32 {
    let host = crate::doctor::Host::real();
    let findings = crate::doctor::examine(&host, &course.matrix);
    let mut out = io::stdout().lock();
    if json {
        let v = crate::doctor::report::json(i18n, &findings);
        let _ = writeln!(out, "{}", serde_json::to_string_pretty(&v).expect("json"));
    } else {
        let _ = crate::doctor::report::text(i18n, &findings, &mut out);
    }
    EXIT_OK
}

/// `doctor --labs [--json]`: whether labs can run here, each problem with its fix.
fn cmd_doctor_labs(i18n: &I18n, json: bool) -> i32 {
    let host = crate::doctor::Host::real();
    let os = crate::doctor::labs::Os::current();
    // The doctor asks the host itself, never what an earlier lab was told.
    crate::lab::app::bwrap::forget_probes();
    // The probe's bubblewrap, kept for the question after it (which ids a lab gets).
    let bwrap = std::cell::OnceCell::new();
    let probe = || {
        crate::lab::app::bwrap::probe()
            .map(|path| drop(bwrap.set(path)))
            .map_err(|e| e.0)
    };
    let mut findings =
        crate::doctor::labs::examine(&host, os, crate::doctor::labs::Kernel::ask(), &probe);
    let ready = findings
        .iter()
        .any(|f| f.id == "sandbox" && f.level == crate::doctor::Level::Ok);
    if ready && let Some(bwrap) = bwrap.get() {
        use crate::doctor::labs::MachineIds;
        let kind = match crate::lab::app::bwrap::mapper(bwrap) {
            Some(m) if m.is_root() => MachineIds::Root,
            Some(_) => MachineIds::Subordinate,
            None => MachineIds::One,
        };
        findings.push(crate::doctor::labs::ids(kind));
    }
    let mut out = io::stdout().lock();
    if json {
        let v = crate::doctor::report::json(i18n, &findings);
        let _ = writeln!(out, "{}", serde_json::to_string_pretty(&v).expect("json"));
    } else {
        let _ = crate::doctor::report::text_titled(i18n, "doctor-labs-title", &findings, &mut out);
    }
    EXIT_OK
}

#[cfg(test)]
mod tests {
    use clap::error::ErrorKind;

    use super::super::parse;

    #[test]
    fn the_apparmor_profile_is_part_of_the_labs_check() {
        assert_eq!(
            parse(&["doctor", "--apparmor-profile"]).err(),
            Some(ErrorKind::MissingRequiredArgument)
        );
        let m = parse(&["doctor", "--labs", "--apparmor-profile", "--json"]).expect("parses");
        let d = m.subcommand_matches("doctor").expect("doctor");
        assert!(d.get_flag("labs") && d.get_flag("apparmor-profile") && d.get_flag("json"));
        assert_eq!(
            parse(&["doctor", "--lab"]).err(),
            Some(ErrorKind::UnknownArgument)
        );
    }
}
