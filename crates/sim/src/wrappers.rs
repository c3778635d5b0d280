//! The scripts installed packages leave in the machine's bin folders: each runs the simulated
//! tool of its name through the rocm-learn binary (`rocm-learn sim TOOL "$@"`).

/// Shell-quotes for use inside double quotes in the wrapper scripts.
fn dq(s: &str) -> String {
    s.chars()
        .flat_map(|c| match c {
            '"' | '\\' | '$' | '`' => vec!['\\', c],
            c => vec![c],
        })
        .collect()
}

/// The wrapper script that runs a simulated tool.
pub fn wrapper(bin: &str, tool: &str) -> String {
    format!("#!/bin/sh\nexec \"{}\" sim {tool} \"$@\"\n", dq(bin))
}

/// The wrapper of a tool in /opt/rocm-X.Y.Z/bin: it names its release, so the tool answers
/// for the tree it was started from (through /opt/rocm or a versioned PATH entry alike).
pub fn release_wrapper(bin: &str, tool: &str, release: &str) -> String {
    format!(
        "#!/bin/sh\nexport {RELEASE_ENV}={}\nexec \"{}\" sim {tool} \"$@\"\n",
        dq(release),
        dq(bin)
    )
}

/// The variable a release's wrapper sets for its tool.
pub const RELEASE_ENV: &str = "ROCM_SIM_RELEASE";
