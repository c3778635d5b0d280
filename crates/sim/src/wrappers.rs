//! The files that stand for the simulated tools in the machine's bin folders. Each is one line,
//! `#!BIN sim:TOOL` (`sim:TOOL@X.Y.Z` for a tool of /opt/rocm-X.Y.Z/bin): the kernel starts the
//! rocm-learn binary on it directly, with no shell in between, as
//! `BIN sim:TOOL[@RELEASE] PATH ARGS...` (`sim_main`). A tool of a release answers for the tree
//! it was started from, through /opt/rocm or a versioned PATH entry alike.
//!
//! Where the binary's path is not absolute (a stage made without one), the kernel could not
//! find it, so the file is a shell script that runs it from PATH with the same arguments.

use std::path::Path;

/// What a wrapper's first argument starts with.
pub const MARK: &str = "sim:";

/// The variable a tool of a release finds its release in.
pub const RELEASE_ENV: &str = "ROCM_SIM_RELEASE";

/// The wrapper that runs the simulated tool `tool`.
pub fn wrapper(bin: &str, tool: &str) -> String {
    file(bin, tool)
}

/// The wrapper of a tool in /opt/rocm-X.Y.Z/bin, which names its release.
pub fn release_wrapper(bin: &str, tool: &str, release: &str) -> String {
    file(bin, &format!("{tool}@{release}"))
}

fn file(bin: &str, spec: &str) -> String {
    // The kernel takes everything after the interpreter's path as one argument, and nothing
    // past its first line: a path with a space or a line break cannot be an interpreter.
    let plain = |s: &str| !s.is_empty() && !s.contains(char::is_whitespace);
    if bin.starts_with('/') && plain(bin) && plain(spec) {
        format!("#!{bin} {MARK}{spec}\n")
    } else {
        format!(
            "#!/bin/sh\nexec \"{}\" \"{MARK}{}\" \"$0\" \"$@\"\n",
            dq(bin),
            dq(spec)
        )
    }
}

/// Shell-quotes for use inside double quotes.
fn dq(s: &str) -> String {
    s.chars()
        .flat_map(|c| match c {
            '"' | '\\' | '$' | '`' => vec!['\\', c],
            c => vec![c],
        })
        .collect()
}

/// A call as a wrapper makes it: `sim:TOOL[@RELEASE]`, split.
pub fn parse_mark(arg: &str) -> Option<(&str, Option<&str>)> {
    let spec = arg.strip_prefix(MARK)?;
    let (tool, release) = match spec.split_once('@') {
        Some((t, r)) => (t, Some(r)),
        None => (spec, None),
    };
    (!tool.is_empty()).then_some((tool, release))
}

/// The tool (and release) a wrapper's text runs, when it is one of these wrappers for `bin`,
/// the machine's own interpreter (its `sim_bin`). A file naming any other interpreter is that
/// interpreter's script, whatever its first argument says: the kernel would run that
/// program, not the tool, so nothing may take it for the tool (sudo's lookup, `which`).
pub fn tool_of(text: &str, bin: &str) -> Option<(String, Option<String>)> {
    let mut lines = text.lines();
    let first = lines.next()?;
    let arg = if first == "#!/bin/sh" {
        let exec = lines.next()?.strip_prefix("exec \"")?;
        let rest = exec.strip_prefix(dq(bin).as_str())?.strip_prefix("\" \"")?;
        rest.split('"').next()?
    } else {
        let (interp, arg) = first.strip_prefix("#!")?.split_once(' ')?;
        if interp != bin || !bin.starts_with('/') {
            return None;
        }
        arg.trim()
    };
    let (tool, release) = parse_mark(arg)?;
    Some((tool.to_string(), release.map(String::from)))
}

/// Whether the file at `path` (a path of this system) is one of these wrappers for `bin`.
pub fn is_wrapper(path: &Path, bin: &str) -> bool {
    use std::io::Read;
    let Ok(f) = std::fs::File::open(path) else {
        return false;
    };
    // A wrapper is one or two short lines; a program is read no further than that.
    let mut head = Vec::with_capacity(512);
    if f.take(512).read_to_end(&mut head).is_err() {
        return false;
    }
    tool_of(&String::from_utf8_lossy(&head), bin).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrapper_is_one_line_the_kernel_runs_and_names_its_tool() {
        let bin = "/usr/local/libexec/rocm-learn";
        let w = wrapper(bin, "rocminfo");
        assert_eq!(w, "#!/usr/local/libexec/rocm-learn sim:rocminfo\n");
        assert_eq!(tool_of(&w, bin), Some(("rocminfo".into(), None)));
        let r = release_wrapper(bin, "hipcc", "6.2.2");
        assert_eq!(r, "#!/usr/local/libexec/rocm-learn sim:hipcc@6.2.2\n");
        assert_eq!(
            tool_of(&r, bin),
            Some(("hipcc".into(), Some("6.2.2".into())))
        );
    }

    #[test]
    fn a_binary_found_on_path_gets_a_shell_wrapper_with_the_same_arguments() {
        let w = release_wrapper("rocm-learn", "hipcc", "6.2.2");
        assert_eq!(
            w,
            "#!/bin/sh\nexec \"rocm-learn\" \"sim:hipcc@6.2.2\" \"$0\" \"$@\"\n"
        );
        assert_eq!(
            tool_of(&w, "rocm-learn"),
            Some(("hipcc".into(), Some("6.2.2".into())))
        );
    }

    #[test]
    fn other_scripts_are_not_wrappers() {
        let bin = "/usr/local/libexec/rocm-learn";
        assert_eq!(tool_of("#!/bin/sh\nexec ls \"$@\"\n", bin), None);
        assert_eq!(tool_of("#!/usr/bin/python3\nprint(1)\n", bin), None);
        assert_eq!(tool_of("", bin), None);
        assert_eq!(parse_mark("sim:"), None);
        assert_eq!(parse_mark("sim"), None);
    }

    #[test]
    fn a_script_naming_another_interpreter_is_not_the_tool_it_names() {
        let bin = "/usr/local/libexec/rocm-learn";
        // What the kernel runs is the interpreter: a learner's own program, or a shell that
        // would look for a file named after the mark.
        for text in [
            "#!/home/learner/evil sim:modprobe\n",
            "#!/bin/bash sim:amd-smi\n",
            "#!/usr/local/libexec/rocm-learn-old sim:rocminfo\n",
            "#!/bin/sh\nexec \"/home/learner/evil\" \"sim:modprobe\" \"$0\" \"$@\"\n",
        ] {
            assert_eq!(tool_of(text, bin), None, "{text}");
        }
        // A shell wrapper for a binary found on PATH names that binary, nothing else.
        let w = wrapper("rocm-learn", "modprobe");
        assert_eq!(tool_of(&w, bin), None);
        assert_eq!(tool_of(&w, "rocm-learn"), Some(("modprobe".into(), None)));
    }
}
