//! `credential [--out FILE] [--issuer-jwk]`: what this learner completed as an Open Badges
//! credential signed by this install's key (on a class server, the class's), or that key as a
//! JWK for whoever checks it.

use std::io::Write;
use std::path::PathBuf;

use clap::{Arg, ArgMatches};

use super::Define::Args;
use super::Runs::OnCourse;
use super::arg_kit::ArgKit;
use super::progress_store::open_store;
use super::{EXIT_FAIL, EXIT_OK, Loaded, Sub};
use crate::credential::{self, Recorder};
use crate::progress;

pub(super) const SUB: Sub = Sub::new("credential", Args("cli-credential", args), OnCourse(run));

fn args(a: &ArgKit) -> Vec<Arg> {
    vec![
        a.option("out", "FILE", "cli-credential-out")
            .value_parser(clap::value_parser!(PathBuf)),
        a.flag("issuer-jwk", "cli-issuer-jwk").conflicts_with("out"),
    ]
}

fn run(cx: Loaded, m: &ArgMatches) -> i32 {
    let Loaded { i18n, course, pack } = &cx;
    let data = match progress::base_dir() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{}", i18n.msg(&e.0));
            return EXIT_FAIL;
        }
    };
    // The data folder of a class server holds its host key: the sessions' progress there was
    // recorded by the server, not by the learner's machine.
    let recorder = if data.join(crate::serve::hostkey::FILE).is_file() {
        Recorder::Server
    } else {
        Recorder::Learner
    };
    let key = match crate::sign::install_key(&data) {
        Ok(k) => k,
        Err(e) => {
            eprintln!(
                "{}",
                i18n.ta("classroom-sign-failed", &[("error", e.to_string().into())])
            );
            return EXIT_FAIL;
        }
    };
    if m.get_flag("issuer-jwk") {
        let jwk = credential::jwk(&key.verifying_key());
        println!("{}", serde_json::to_string_pretty(&jwk).expect("json"));
        return EXIT_OK;
    }
    let Some(store) = open_store(i18n, course, pack) else {
        return EXIT_FAIL;
    };
    let progress = match store.load() {
        Ok((p, _)) => p,
        Err(e) => {
            eprintln!("{}", i18n.msg(&e.0));
            return EXIT_FAIL;
        }
    };
    let learner = crate::export::learner_name(progress.learner.as_deref());
    let machine = crate::export::machine_name();
    let stamp = crate::export::Stamp {
        pack,
        learner: &learner,
        machine: &machine,
        now: progress::now(),
        events: &[],
    };
    let export = crate::export::build(&progress, course, &stamp);
    let title = pack.title.as_ref().map_or_else(
        || i18n.t("credential-builtin-course"),
        |t| crate::plain::loc(i18n, t),
    );
    let issue = credential::Issue {
        export: &export,
        course_title: &title,
        recorder,
        now: stamp.now,
    };
    let Some(vc) = credential::credential(&issue, &key.verifying_key()) else {
        eprintln!("{}", i18n.t("credential-nothing-done"));
        return EXIT_FAIL;
    };
    let token = credential::encode(&key, &vc);
    let said = match recorder {
        Recorder::Server => "credential-issued-server",
        Recorder::Learner => "credential-issued-learner",
    };
    let count = vc["evidence"].as_array().map_or(0, Vec::len);
    match m.get_one::<PathBuf>("out") {
        Some(file) => {
            if let Err(e) = std::fs::write(file, format!("{token}\n")) {
                eprintln!(
                    "{}",
                    i18n.ta(
                        "credential-write-failed",
                        &[
                            ("file", file.display().to_string().into()),
                            ("error", e.to_string().into())
                        ]
                    )
                );
                return EXIT_FAIL;
            }
            eprintln!(
                "{}",
                i18n.ta(
                    "credential-written",
                    &[
                        ("file", file.display().to_string().into()),
                        ("items", count.into())
                    ]
                )
            );
        }
        None => {
            let _ = writeln!(std::io::stdout().lock(), "{token}");
        }
    }
    eprintln!("{}", i18n.t(said));
    EXIT_OK
}
