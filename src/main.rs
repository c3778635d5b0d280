fn main() {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // A simulated tool runs for every such command a learner types in a lab: dispatched before
    // any start-up work (progress file, Fluent bundles, clap), so a tool costs about what a bare
    // process start does. `rocm-learn sim TOOL ARGS...`, or a wrapper's first line run by the
    // kernel: `rocm-learn sim:TOOL[@RELEASE] WRAPPER ARGS...`.
    let text = |a: &[std::ffi::OsString]| -> Vec<String> {
        a.iter().map(|a| a.to_string_lossy().into_owned()).collect()
    };
    let call = match args.get(1).map(|a| a.to_string_lossy()) {
        Some(a) if a == "sim" => {
            let rest = text(args.get(2..).unwrap_or_default());
            Some((
                rest.first().cloned().unwrap_or_default(),
                None,
                rest.get(1..).unwrap_or_default().to_vec(),
            ))
        }
        Some(a) => rocm_learn::sim::wrappers::parse_mark(&a).map(|(tool, release)| {
            let rest = text(args.get(3..).unwrap_or_default());
            (tool.to_string(), release.map(String::from), rest)
        }),
        None => None,
    };
    if let Some((tool, release, rest)) = call {
        // In the lab sandbox a tool is a request to the lab's supervisor; anywhere else the
        // simulator acts on its own.
        let code = if rocm_learn::lab::wire::layout::in_sandbox() {
            rocm_learn::lab::sandbox::broker::sim_main(&tool, &rest, release.as_deref())
        } else {
            let more: Vec<(&str, &str)> = release
                .iter()
                .map(|r| (rocm_learn::sim::wrappers::RELEASE_ENV, r.as_str()))
                .collect();
            rocm_learn::sim_host::main(&tool, &rest, &more)
        };
        std::process::exit(code);
    }
    // The lab's confined logins: single-threaded, before any start-up work.
    if args
        .get(1)
        .is_some_and(|a| a == rocm_learn::lab::wire::layout::EXEC)
    {
        std::process::exit(rocm_learn::lab::sandbox::supervisor::exec_main(&args[2..]));
    }
    // The holder of a user namespace for an idmapped /usr: single-threaded, so it may unshare.
    if args
        .get(1)
        .is_some_and(|a| a == rocm_learn::lab::app::usr_map::HOLD)
    {
        std::process::exit(rocm_learn::lab::app::usr_map::hold_main());
    }
    let code = rocm_learn::cli::run(args);
    // Closed labs' stages are removed off the UI thread: let the removers finish (bounded).
    rocm_learn::lab::app::stage::finish_removals(std::time::Duration::from_secs(10));
    std::process::exit(code);
}
