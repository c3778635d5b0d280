//! `report FILE|DIR|-... [--csv] [--json] [--lrs] [--trust-new-keys] [--class DIR]`: the class
//! summary from learners' exports, or from the learning record store; results a class server
//! signed are marked as the server's.

use std::io;
use std::path::PathBuf;

use clap::{Arg, ArgMatches};

use super::Define::Args;
use super::Runs::OnCourse;
use super::arg_kit::ArgKit;
use super::common::print_out;
use super::{EXIT_FAIL, EXIT_OK, EXIT_USAGE, Loaded, Sub};
use crate::i18n::I18n;
use crate::progress;
use crate::term_text::sanitize;

pub(super) const SUB: Sub = Sub::new("report", Args("cli-report", args), OnCourse(run));

fn args(a: &ArgKit) -> Vec<Arg> {
    vec![
        Arg::new("files")
            .num_args(1..)
            .required_unless_present_any(["lrs", "store"])
            .value_name("FILE")
            .value_parser(clap::value_parser!(PathBuf))
            .help(a.t("cli-report-files"))
            .help_heading(a.arguments.clone()),
        a.flag("csv", "cli-csv"),
        a.flag("json", "cli-report-json"),
        a.flag("lrs", "cli-report-lrs"),
        a.option("store", "URL", "cli-report-store")
            .conflicts_with_all(["lrs", "files", "class", "trust-new-keys"]),
        a.flag("trust-new-keys", "cli-report-trust-new-keys"),
        a.option("class", "DIR", "cli-report-class")
            .action(clap::ArgAction::Append)
            .value_parser(clap::value_parser!(PathBuf)),
    ]
}

/// `report FILE|DIR|-...`: the class summary; unreadable or foreign files are named and skipped.
fn run(cx: Loaded, m: &ArgMatches) -> i32 {
    let (i18n, course, pack) = (&cx.i18n, &cx.course, &cx.pack);
    let mut exports = if m.get_flag("lrs") {
        match lrs_inputs(i18n) {
            Ok(i) => i,
            Err(code) => return code,
        }
    } else {
        Vec::new()
    };
    let mut store_class = None;
    if let Some(url) = m.get_one::<String>("store") {
        match store_inputs(url, pack) {
            Ok((inputs, class)) => {
                exports.extend(inputs);
                store_class = Some(class);
            }
            Err(msg) => {
                eprintln!("{}", i18n.msg(&msg));
                return EXIT_FAIL;
            }
        }
    }
    let mut skipped = 0;
    let mut skip = |file: &str, reason: String| {
        skipped += 1;
        eprintln!(
            "{}",
            i18n.ta(
                "report-skipped",
                // Others name the files of a submit folder and write their contents.
                &[
                    ("file", sanitize::text(file).into()),
                    ("reason", sanitize::text(&reason).into())
                ]
            )
        );
    };
    for (name, text) in report_inputs(i18n, m.get_many::<PathBuf>("files").into_iter().flatten()) {
        match text.and_then(|t| crate::export::parse_checked(&t)) {
            Ok((export, verdict)) => exports.push(crate::report::Input {
                name,
                export,
                verdict,
            }),
            Err(reason) => skip(&name, reason),
        }
    }
    if exports.is_empty() {
        eprintln!("{}", i18n.t("report-no-files"));
        return EXIT_FAIL;
    }
    let mut known = crate::report::KnownKeys::load();
    let classes = class_dirs(i18n, m);
    known.servers = classes
        .iter()
        .filter_map(|d| crate::sign::install_public(d))
        .collect();
    for dir in classes {
        match crate::report::ClassKeys::load(&dir) {
            Ok(keys) => known.classes.push((dir, keys)),
            Err(msg) => {
                eprintln!("{}", i18n.msg(&msg));
                return EXIT_FAIL;
            }
        }
    }
    // The database's events are all the servers': no learner's key to pin or remember.
    if store_class.is_some() {
        known = crate::report::KnownKeys::default();
        known.servers.push(STORE_KEY.into());
    }
    let mut report = crate::report::build(
        &exports,
        course,
        pack,
        progress::now(),
        &known,
        m.get_flag("trust-new-keys"),
    );
    // From the database, "now" is only for learners with a session on some worker: one
    // whose worker died or who left is not mid-lab, whatever their last event was.
    if let Some(class) = &store_class {
        for row in &mut report.learners {
            if !class.connected.contains(&row.learner) {
                row.live = None;
            }
        }
    }
    if store_class.is_none() {
        known.remember(pack, &report);
    }
    if m.get_flag("json") {
        let json = crate::report::render_json(&report, pack, i18n);
        print_out(&format!(
            "{}\n",
            serde_json::to_string_pretty(&json).expect("json")
        ));
    } else if m.get_flag("csv") {
        print_out(&crate::report::render_csv(&report, course, pack));
    } else {
        print_out(&crate::report::render_text(&report, course, i18n, skipped));
    }
    EXIT_OK
}

/// The class folders whose servers' exports are proof and whose records say which keys are
/// each learner's: each `--class DIR`, and the class folder a `DIR/submit` argument belongs to
/// (a folder with the server's `roster.toml` and `host_key`: whoever can write it controls the
/// class anyway).
fn class_dirs(i18n: &I18n, m: &ArgMatches) -> Vec<PathBuf> {
    let is_class = |d: &std::path::Path| {
        d.join(crate::serve::roster::FILE).is_file()
            && d.join(crate::serve::hostkey::FILE).is_file()
    };
    let mut dirs = Vec::new();
    for dir in m.get_many::<PathBuf>("class").into_iter().flatten() {
        dirs.push(dir.clone());
        if crate::sign::install_public(dir).is_none() {
            eprintln!(
                "{}",
                i18n.ta(
                    "serve-report-no-server-key",
                    &[("dir", dir.display().to_string().into())]
                )
            );
        }
    }
    for f in m.get_many::<PathBuf>("files").into_iter().flatten() {
        if f.file_name().is_some_and(|n| n == crate::serve::SUBMIT)
            && let Some(class) = f.parent()
            && is_class(class)
            && !dirs.iter().any(|d| d == class)
        {
            dirs.push(class.to_path_buf());
        }
    }
    dirs
}

/// The texts `report` reads, each with the name to show: a file, every `*.json` in a folder
/// (a class submit folder), or `-` for standard input. Others can write a submit folder, so
/// it is read through `hostfs`: no links, regular files only, each capped, never blocking.
fn report_inputs<'a>(
    i18n: &I18n,
    args: impl Iterator<Item = &'a PathBuf>,
) -> Vec<(String, Result<String, String>)> {
    use crate::hostfs::{self, Limits};
    let mut out = Vec::new();
    let cap = Limits::SUBMIT.max_file;
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).map_err(|e| e.to_string());
    for arg in args {
        if arg.as_os_str() == "-" {
            let mut bytes = Vec::new();
            let r = match io::Read::read_to_end(
                &mut io::Read::take(io::stdin(), cap + 1),
                &mut bytes,
            ) {
                Err(e) => Err(e.to_string()),
                Ok(_) if bytes.len() as u64 > cap => {
                    Err(i18n.msg(&hostfs::Refusal::TooLarge(cap).msg()))
                }
                Ok(_) => text(bytes),
            };
            out.push(("-".to_string(), r));
        } else if arg.is_dir() {
            let walk = hostfs::files_in(arg, Limits::SUBMIT, &|n| n.ends_with(".json"));
            for (name, bytes) in walk.files {
                out.push((arg.join(name).display().to_string(), text(bytes)));
            }
            for (name, why) in walk.refused {
                out.push((
                    arg.join(name).display().to_string(),
                    Err(i18n.msg(&why.msg())),
                ));
            }
        } else {
            let r = hostfs::read_named(arg, cap).map_err(|why| i18n.msg(&why.msg()));
            out.push((arg.display().to_string(), r.and_then(text)));
        }
    }
    out
}

/// What marks the store's events as the server's: only workers write the class database.
const STORE_KEY: &str = "rocm-learn-serve-store";

/// `report --store URL`: each learner's events in this pack as the class database holds them,
/// one input per learner, the server's by construction (learners cannot write there).
fn store_inputs(
    url: &str,
    pack: &crate::content::Pack,
) -> Result<
    (
        Vec<crate::report::Input>,
        crate::serve::store::report::Class,
    ),
    crate::content::Msg,
> {
    let url = crate::serve::store::url::parse(url)?;
    let mut class = crate::serve::store::report::read(&url)?;
    let dir = if pack.is_builtin() {
        String::new()
    } else {
        format!("packs/{}", progress::slug(&pack.id))
    };
    let inputs = std::mem::take(&mut class.events)
        .into_iter()
        .filter(|((_, d), _)| *d == dir)
        .map(|((learner, _), events)| crate::report::Input {
            name: format!("{}/{learner}", url.shown),
            export: crate::export::Export {
                format: crate::export::FORMAT.into(),
                version: crate::export::VERSION,
                pack: crate::export::PackStamp {
                    id: pack.id.clone(),
                    version: pack.version.clone(),
                },
                learner,
                machine: String::new(),
                login: String::new(),
                exported_at: String::new(),
                items: Vec::new(),
                events,
                signature: None,
            },
            verdict: crate::sign::Verdict::Good(STORE_KEY.into()),
        })
        .collect();
    Ok((inputs, class))
}

/// `report --lrs`: the learners' events as the LRS holds them, one input per learner, install
/// and pack (a learner who also worked in another pack is kept, with that work left out), verified
/// by the LRS's own authentication rather than by signatures.
fn lrs_inputs(i18n: &I18n) -> Result<Vec<crate::report::Input>, i32> {
    let Some(cfg) = crate::lrs::Config::from_env() else {
        eprintln!(
            "{}",
            i18n.ta("lrs-not-configured", &[("env", crate::lrs::URL_ENV.into())])
        );
        return Err(EXIT_USAGE);
    };
    let statements = crate::lrs::fetch_all(&cfg).map_err(|e| {
        eprintln!(
            "{}",
            i18n.ta(
                "lrs-fetch-failed",
                &[("url", cfg.base.as_str().into()), ("error", e.into())]
            )
        );
        EXIT_FAIL
    })?;
    let mut by: std::collections::BTreeMap<(String, String, String), crate::report::Input> =
        Default::default();
    for s in statements {
        let ext = &s["context"]["extensions"];
        let Ok(event) =
            serde_json::from_value::<crate::events::Event>(ext[crate::xapi::EXT_EVENT].clone())
        else {
            continue;
        };
        let learner = s["actor"]["account"]["name"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let install = ext[crate::xapi::EXT_INSTALL]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let pack = &ext[crate::xapi::EXT_PACK];
        let pack_id = pack["id"].as_str().unwrap_or_default().to_string();
        let input = by
            .entry((learner.clone(), install.clone(), pack_id))
            .or_insert_with(|| crate::report::Input {
                name: format!("{}/{learner}", cfg.base),
                export: crate::export::Export {
                    format: crate::export::FORMAT.into(),
                    version: crate::export::VERSION,
                    pack: crate::export::PackStamp {
                        id: pack["id"].as_str().unwrap_or_default().into(),
                        version: pack["version"].as_str().unwrap_or_default().into(),
                    },
                    learner: learner.clone(),
                    machine: pack["machine"].as_str().unwrap_or_default().into(),
                    login: String::new(),
                    exported_at: String::new(),
                    items: Vec::new(),
                    events: Vec::new(),
                    signature: None,
                },
                verdict: if install.is_empty() {
                    crate::sign::Verdict::Unsigned
                } else {
                    crate::sign::Verdict::Good(install.clone())
                },
            });
        input.export.events.push(event);
    }
    Ok(by.into_values().collect())
}

#[cfg(test)]
mod tests {
    use clap::error::ErrorKind;

    use super::super::parse;

    #[test]
    fn report_needs_files_unless_it_reads_the_lrs() {
        assert_eq!(
            parse(&["report"]).err(),
            Some(ErrorKind::MissingRequiredArgument)
        );
        assert!(parse(&["report", "--lrs"]).is_ok());
        let m = parse(&[
            "report",
            "a.json",
            "class/",
            "-",
            "--csv",
            "--trust-new-keys",
        ])
        .expect("parses");
        let r = m.subcommand_matches("report").expect("report");
        assert_eq!(
            r.get_many::<std::path::PathBuf>("files")
                .expect("files")
                .count(),
            3
        );
        assert!(r.get_flag("csv") && r.get_flag("trust-new-keys"));
        assert_eq!(
            parse(&["report", "a", "--plain"]).err(),
            Some(ErrorKind::UnknownArgument)
        );
    }
}
