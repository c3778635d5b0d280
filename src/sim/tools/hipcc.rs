//! `hipcc`: the version banner of the installed release (compiling is not simulated).

use super::super::{Ctx, catalog};

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let version = cx
        .state
        .rocm_version()
        .unwrap_or(catalog::DEFAULT_RELEASE)
        .to_string();
    let r = catalog::release(&version).unwrap_or(&catalog::RELEASES[1]);
    if args.iter().any(|a| a == "--version" || a == "-v") {
        let dir = format!("{}/lib/llvm/bin", r.rocm_dir());
        cx.println(&format!("HIP version: {}", r.hip_version));
        cx.println(r.clang);
        cx.println("Target: x86_64-unknown-linux-gnu");
        cx.println("Thread model: posix");
        cx.println(&format!("InstalledDir: {dir}"));
        cx.println(&format!("Configuration file: {dir}/clang++.cfg"));
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
