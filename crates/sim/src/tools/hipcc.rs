//! `hipcc`: the version banner of its release (compiling is not simulated). With several
//! releases installed, that is the release of the tree it was started from: its wrapper names
//! it; started some other way, the release /opt/rocm leads to.

use super::super::{Ctx, alternatives, catalog, pkgs};

/// The release a ROCm tool run now belongs to.
pub fn release(cx: &Ctx) -> String {
    // The variable is the caller's to set (`ROCM_SIM_RELEASE=... hipcc`): it names the release
    // only when that release's tree is on the machine, as its wrapper is, so a release that is
    // not installed can never answer (or be recorded as the learner's proof).
    cx.env
        .iter()
        .find(|(k, _)| k == pkgs::RELEASE_ENV)
        .map(|(_, v)| v.clone())
        .filter(|v| {
            catalog::release(v).is_some_and(|r| {
                cx.root
                    .join(r.rocm_dir().trim_start_matches('/'))
                    .join("bin/hipcc")
                    .exists()
            })
        })
        .or_else(|| alternatives::rocm_release(cx.root).filter(|v| catalog::release(v).is_some()))
        .or_else(|| cx.state.rocm_version().map(String::from))
        .unwrap_or_else(|| catalog::DEFAULT_RELEASE.to_string())
}

/// `hipcc ARGS`: reports its version; compiles nothing.
pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let version = release(cx);
    let r = catalog::release(&version).unwrap_or(&catalog::RELEASES[1]);
    if args.iter().any(|a| a == "--version" || a == "-v") {
        let dir = format!("{}/lib/llvm/bin", r.rocm_dir());
        cx.println(&format!("HIP version: {}", r.hip_version));
        cx.println(r.clang);
        cx.println("Target: x86_64-unknown-linux-gnu");
        cx.println("Thread model: posix");
        cx.println(&format!("InstalledDir: {dir}"));
        cx.println(&format!("Configuration file: {dir}/clang++.cfg"));
        record_version(cx, &version);
        return 0;
    }
    // Options that take the next word (`-o out`) are not inputs.
    let mut missing = Vec::new();
    let mut prev_o = false;
    let mut real_inputs = 0;
    for a in args {
        if prev_o {
            prev_o = false;
            continue;
        }
        if a == "-o" || a == "-I" || a == "-L" || a == "-x" {
            prev_o = true;
            continue;
        }
        if a.starts_with('-') {
            continue;
        }
        real_inputs += 1;
        if !cx.host(a).exists() {
            missing.push(a.clone());
        }
    }
    for m in &missing {
        cx.eprintln(&format!("clang: error: no such file or directory: '{m}'"));
    }
    if real_inputs == 0 || missing.len() == real_inputs {
        cx.eprintln("clang: error: no input files");
        return 1;
    }
    if !missing.is_empty() {
        return 1;
    }
    cx.eprintln("hipcc: compiling is not part of the simulated machine; this lab checks the toolchain with `hipcc --version`");
    1
}

/// Where the last `hipcc --version` is kept: the login session it ran in and the release it
/// reported (the lab that asks the learner to prove a release reads it).
pub const VERSION_RECORD: &str = "var/lib/rocm-sim/hipcc-version";

fn record_version(cx: &Ctx, release: &str) {
    let session = cx.caller.session.clone().unwrap_or_default();
    let _ = super::super::fsx::write_atomic(
        &cx.root.join(VERSION_RECORD),
        format!("{session}\t{release}\n").as_bytes(),
    );
}

/// The session and release of the last `hipcc --version`, if any ran.
pub fn last_version(root: &std::path::Path) -> Option<(String, String)> {
    let t = super::super::fsx::read_opt(&root.join(VERSION_RECORD))?;
    let (s, r) = t.trim_end().split_once('\t')?;
    Some((s.to_string(), r.to_string()))
}
