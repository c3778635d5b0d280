//! The Core SDK's compiler drivers and HIP helpers: `amdclang`, `amdclang++` (what TheRock
//! moves to), `hipcc` from the Core SDK's tree (deprecated there, still shipped in
//! `amdrocm-llvm`), `hipconfig`. Only their version banners are simulated. The 10.x banners
//! are not in AMD's documentation: the lines here are the ones a user's `hipconfig --full` on
//! 10.0 shows (HIP 7.15.26333, AMD clang 23.0.0git) plus what every clang prints.

use super::super::{Ctx, coresdk};

pub const HIP_VERSION: &str = "7.15.26333-0000000";
const CLANG: &str = "AMD clang version 23.0.0git";

/// The tree of the Core SDK release running the tool.
fn prefix(cx: &Ctx) -> &'static str {
    coresdk::running_release(cx).map_or(coresdk::PREFIX, |r| r.prefix)
}

fn clang_banner(cx: &mut Ctx) {
    cx.println(CLANG);
    cx.println("Target: x86_64-unknown-linux-gnu");
    cx.println("Thread model: posix");
    let p = prefix(cx);
    cx.println(&format!("InstalledDir: {p}/llvm/bin"));
}

/// `amdclang`, `amdclang++` and the Core SDK's `hipcc`: `--version`, or clang's complaint.
pub fn compiler(cx: &mut Ctx, tool: &str, args: &[String]) -> i32 {
    if args.iter().any(|a| a == "--version") {
        if tool == "hipcc" {
            cx.println(&format!("HIP version: {HIP_VERSION}"));
        }
        clang_banner(cx);
        return 0;
    }
    if args.iter().all(|a| a.starts_with('-')) {
        cx.eprintln("clang: error: no input files");
        return 1;
    }
    cx.eprintln(&format!(
        "{tool}: the simulated machine does not compile; `{tool} --version` shows the compiler"
    ));
    1
}

/// `hipconfig --version` prints the HIP version alone; `--path`/`--rocmpath` the tree.
pub fn hipconfig(cx: &mut Ctx, args: &[String]) -> i32 {
    match args.first().map(String::as_str) {
        Some("--version" | "-v") => cx.print(HIP_VERSION),
        Some("--path" | "-p" | "--rocmpath" | "-R") => {
            let p = prefix(cx);
            cx.print(p)
        }
        Some("--platform" | "-P") => cx.print("amd"),
        _ => {
            cx.println(&format!("HIP version: {HIP_VERSION}"));
            let p = prefix(cx);
            cx.println(&format!("HIP_PATH: {p}"));
            cx.println(&format!("ROCM_PATH: {p}"));
            cx.println("HIP_PLATFORM: amd");
            cx.println("HIP_RUNTIME: rocclr");
        }
    }
    0
}

/// `rocm_agent_enumerator`: the GPU targets, one a line.
pub fn agents(cx: &mut Ctx) -> i32 {
    let gfx: Vec<String> = cx
        .state
        .machine
        .gpus
        .iter()
        .map(|g| g.gfx.clone())
        .collect();
    if cx.state.driver.is_some() {
        for g in gfx {
            cx.println(&g);
        }
    }
    0
}
