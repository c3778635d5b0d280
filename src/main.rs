fn main() {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // `rocm-learn sim TOOL ARGS...` runs for every simulated command a learner types in a lab:
    // dispatch it before any start-up work (progress file, Fluent bundles, clap), so a tool
    // costs about what a bare process start does.
    if args.get(1).is_some_and(|a| a == "sim") {
        let rest: Vec<String> = args[2..]
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        let (tool, rest) = rest
            .split_first()
            .map_or(("", &[][..]), |(t, r)| (t.as_str(), r));
        // In the lab sandbox a tool is a request to the lab's supervisor (or, run by it, the
        // tool itself); anywhere else the simulator acts on its own.
        let code = if rocm_learn::lab::wire::layout::in_sandbox() {
            rocm_learn::lab::sandbox::broker::sim_main(tool, rest)
        } else {
            rocm_learn::sim::entry::main(tool, rest, &rocm_learn::sim::entry::Alone)
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
