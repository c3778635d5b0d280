//! `docker` and `podman`: enough of a container runtime to run ROCm's images on this machine.
//!
//! A container shares the host's kernel, so what it can do with the GPU is decided by what the
//! run command hands it: `--device` nodes (which must exist on the host), the process's user
//! and groups (`--group-add` names are looked up in the *image*, numbers are taken as they are;
//! rootless podman holds the caller's host groups only with `--group-add keep-groups`), and
//! `--privileged`. The images are the ones AMD publishes (`IMAGES`), already pulled; there is
//! no network. Inside, `rocminfo`, `groups` and `id` answer as they would in that container.
//!
//! Every `run` is recorded in [`RUNS_PATH`] (beside the machine's state, out of the learner's
//! reach) with what the runtime gave the container and what rocminfo inside reported: the
//! container lab grades those records.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::super::machine::Machine;
use super::super::state::{DevNode, State};
use super::super::{Ctx, accounts, fsx};
use super::opts::{self, Arg, Long, Short, Value};

/// The record of container runs, relative to the stage root.
pub const RUNS_PATH: &str = "var/lib/rocm-sim/containers.json";
/// How many runs the record keeps.
const KEEP: usize = 20;

/// One image: its default user, that user's groups and the image's /etc/group.
struct Image {
    name: &'static str,
    user: &'static str,
    uid: u32,
    /// The default user's groups (primary first).
    gids: &'static [u32],
    /// Groups the image adds to its Ubuntu base's /etc/group (which has `video`, no `render`).
    extra_groups: &'static [(&'static str, u32)],
}

impl Image {
    /// The image's /etc/group.
    fn groups(&self) -> impl Iterator<Item = &(&'static str, u32)> {
        UBUNTU_GROUPS.iter().chain(self.extra_groups)
    }
}

const UBUNTU_GROUPS: &[(&str, u32)] = &[
    ("root", 0),
    ("adm", 4),
    ("sudo", 27),
    ("video", 44),
    ("plugdev", 46),
    ("users", 100),
    ("nogroup", 65534),
];

const IMAGES: &[Image] = &[
    Image {
        name: "rocm/rocm-terminal",
        user: "rocm-user",
        uid: 1000,
        gids: &[1000, 27, 44],
        extra_groups: &[("rocm-user", 1000)],
    },
    Image {
        name: "rocm/pytorch",
        user: "root",
        uid: 0,
        gids: &[0],
        extra_groups: &[],
    },
];

/// What one `run` gave its container and what happened inside.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Run {
    /// `docker` or `podman`.
    pub runtime: String,
    /// podman run by an ordinary user (a user namespace of its own).
    pub rootless: bool,
    /// Image name as given.
    pub image: String,
    /// The command run in the container.
    pub command: Vec<String>,
    /// Host device nodes handed to the container.
    pub devices: Vec<String>,
    /// `--group-add` values as given.
    pub group_add: Vec<String>,
    /// The container process's uid and the host gids it holds (what the kernel compares).
    pub uid: u32,
    /// The host gids the container process holds.
    pub gids: Vec<u32>,
    /// `--security-opt` values as given.
    pub security_opt: Vec<String>,
    /// `--ipc` as given.
    pub ipc: Option<String>,
    /// `--shm-size` as given.
    pub shm_size: Option<String>,
    /// GPU agents rocminfo listed inside (when the command was rocminfo and it got that far).
    pub gpus_found: usize,
    /// Why rocminfo could not open /dev/kfd, if it could not.
    pub kfd_error: Option<String>,
}

impl Run {
    /// Whether /dev/kfd was handed in.
    pub fn has_kfd(&self) -> bool {
        self.devices.iter().any(|d| d == "/dev/kfd")
    }

    /// The render nodes handed in.
    pub fn render_nodes(&self) -> Vec<&str> {
        self.devices
            .iter()
            .filter(|d| d.starts_with("/dev/dri/renderD"))
            .map(String::as_str)
            .collect()
    }

    /// Whether the command was rocminfo.
    pub fn ran_rocminfo(&self) -> bool {
        self.command.first().is_some_and(|c| c == "rocminfo")
    }
}

/// Every recorded run, oldest first (empty when none ran or the record is unreadable).
pub fn runs(root: &Path) -> Vec<Run> {
    fsx::read_opt(&root.join(RUNS_PATH))
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

fn record(root: &Path, run: Run) -> std::io::Result<()> {
    let mut all = runs(root);
    all.push(run);
    let skip = all.len().saturating_sub(KEEP);
    let text = serde_json::to_string_pretty(&all[skip..]).unwrap_or_default();
    fsx::write_atomic(&root.join(RUNS_PATH), text.as_bytes())
}

const WHT: &str = "\x1B[37m";
const RED: &str = "\x1B[31m";
const RESET: &str = "\x1B[0m";

/// The error as each runtime's CLI prints it.
fn daemon_error(cx: &mut Ctx, runtime: &str, msg: &str) -> i32 {
    if runtime == "podman" {
        cx.eprintln(&format!("Error: {}", lower_first(msg)));
    } else {
        cx.eprintln(&format!("docker: Error response from daemon: {msg}."));
        cx.eprintln("See 'docker run --help'.");
    }
    125
}

fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_lowercase().chain(c).collect(),
        None => String::new(),
    }
}

#[derive(Default)]
struct Opts {
    devices: Vec<String>,
    group_add: Vec<String>,
    security_opt: Vec<String>,
    ipc: Option<String>,
    shm_size: Option<String>,
    user: Option<String>,
    privileged: bool,
    /// `--gpus`: Docker's request for a GPU driver (NVIDIA's container runtime).
    gpus: Option<String>,
}

/// A boolean flag's `=value`, read by Go's strconv.ParseBool as pflag does; `Err` is the
/// CLI's complaint about `flag`.
fn bool_value(v: &str, flag: &str) -> Result<bool, String> {
    match v {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Ok(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Ok(false),
        _ => Err(format!(
            "invalid argument \"{v}\" for \"{flag}\" flag: strconv.ParseBool: parsing \"{v}\": invalid syntax"
        )),
    }
}

/// The long name of a boolean shorthand.
fn bool_long(c: char) -> &'static str {
    match c {
        'i' => "interactive",
        't' => "tty",
        _ => "detach",
    }
}

/// Parses `run`'s options as the CLI's pflag does: they end at the image (or `--`), shorthand
/// flags cluster (`-itd`, `-uroot`), a boolean takes `=value` on its long name. `Err` is the
/// CLI's complaint.
fn parse(args: &[String]) -> Result<(Opts, Vec<String>), String> {
    let mut o = Opts::default();
    let mut p = opts::parser(args);
    let mut word = opts::Word::default();
    loop {
        let arg = match opts::next_word(&mut p, &mut word) {
            Ok(Some(a)) => a,
            Ok(None) => return Ok((o, Vec::new())),
            // Only `--flag=value` on a flag that takes none gets here: not a boolean we know.
            Err(_) => {
                let flag = word.text.split('=').next().unwrap_or("");
                return Err(format!("unknown flag: {flag}"));
            }
        };
        // The flag as pflag names it in a complaint.
        let named = match &arg {
            Short(c) => format!("'{c}' in {}", word.text),
            Long(l) => format!("--{l}"),
            Value(_) => String::new(),
        };
        match arg {
            Value(image) => {
                let mut rest = vec![opts::text(image)];
                rest.extend(p.raw_args().map_err(|e| e.to_string())?.map(opts::text));
                return Ok((o, rest));
            }
            // `-d=true`: a boolean shorthand takes its value after `=`.
            Short(c @ ('i' | 't' | 'd')) => {
                if word.after().starts_with('=') {
                    let v = p.optional_value().map(opts::text).unwrap_or_default();
                    bool_value(&v[1..], &format!("-{c}, --{}", bool_long(c)))?;
                }
            }
            Long(l @ ("rm" | "interactive" | "tty" | "detach" | "privileged")) => {
                let privileged = l == "privileged";
                let on = match p.optional_value().map(opts::text) {
                    None => true,
                    Some(v) => bool_value(&v, &named)?,
                };
                if privileged {
                    o.privileged = on;
                }
            }
            Short(c) if !"uvewp".contains(c) => {
                return Err(format!("unknown shorthand flag: {named}"));
            }
            Short(_) | Long(_) => {
                let Some(key) = valued(&arg) else {
                    return Err(format!("unknown flag: {named}"));
                };
                let value = p
                    .value()
                    .map(opts::text)
                    .map_err(|_| format!("flag needs an argument: {named}"))?;
                o.set(key, value);
            }
        }
    }
}

/// The long name of a `run` option that takes a value.
fn valued(arg: &Arg) -> Option<&'static str> {
    const LONG: &[&str] = &[
        "device",
        "group-add",
        "security-opt",
        "cap-add",
        "cap-drop",
        "ipc",
        "shm-size",
        "user",
        "name",
        "volume",
        "env",
        "workdir",
        "network",
        "publish",
        "entrypoint",
        "gpus",
    ];
    match arg {
        Short('u') => Some("user"),
        Short('v') => Some("volume"),
        Short('e') => Some("env"),
        Short('w') => Some("workdir"),
        Short('p') => Some("publish"),
        Long(l) => LONG.iter().copied().find(|x| x == l),
        _ => None,
    }
}

impl Opts {
    /// Records the value of the option `key` (its long name); the others do not matter here.
    fn set(&mut self, key: &str, value: String) {
        match key {
            "device" => self
                .devices
                .push(value.split(':').next().unwrap_or("").to_string()),
            "group-add" => self.group_add.push(value),
            "security-opt" => self.security_opt.push(value),
            "ipc" => self.ipc = Some(value),
            "shm-size" => self.shm_size = Some(value),
            "user" => self.user = Some(value),
            "gpus" => self.gpus = Some(value),
            _ => {}
        }
    }
}

fn image(name: &str) -> Option<&'static Image> {
    let base = name
        .strip_prefix("docker.io/")
        .unwrap_or(name)
        .strip_suffix(":latest")
        .unwrap_or(name.strip_prefix("docker.io/").unwrap_or(name));
    IMAGES.iter().find(|i| i.name == base)
}

/// The host nodes a `--device` path stands for (a directory brings every node in it).
fn expand_device(state: &State, path: &str) -> Vec<DevNode> {
    let dir = format!("{}/", path.trim_end_matches('/'));
    state
        .devices
        .iter()
        .filter(|n| n.path == path || n.path.starts_with(&dir))
        .cloned()
        .collect()
}

/// Can a process with `uid` and `gids` (host numbers) open this node read-write?
fn may_open(root: &Path, node: &DevNode, uid: u32, gids: &[u32]) -> bool {
    let node_ids = (node.owner.as_str(), node.group.as_str(), node.mode);
    accounts::may_read_write_named(root, node_ids, uid, gids)
}

/// `docker` or `podman` (`runtime`) with `args`.
pub fn run(cx: &mut Ctx, runtime: &str, args: &[String]) -> i32 {
    match args.first().map(String::as_str) {
        Some("--version") | Some("-v") => {
            if runtime == "podman" {
                cx.println("podman version 4.9.3");
            } else {
                cx.println("Docker version 24.0.7, build 24.0.7-0ubuntu4.1");
            }
            0
        }
        Some("run") => run_container(cx, runtime, &args[1..]),
        // The management form of the same commands (`docker container run`, `image ls`).
        Some("container") if args.get(1).is_some_and(|a| a == "run") => {
            run_container(cx, runtime, &args[2..])
        }
        Some("image") if args.get(1).is_some_and(|a| a == "ls" || a == "list") => {
            run(cx, runtime, &["images".to_string()])
        }
        Some("images") => {
            if let Err(code) = connect(cx, runtime, "images") {
                return code;
            }
            cx.println("REPOSITORY           TAG       IMAGE ID       CREATED       SIZE");
            cx.println("rocm/pytorch         latest    8b8e7d1e7c35   3 weeks ago   76.2GB");
            cx.println("rocm/rocm-terminal   latest    1f2a34c9a0e1   3 weeks ago   7.38GB");
            0
        }
        Some(other) => {
            if runtime == "podman" {
                cx.eprintln(&format!("Error: unrecognized command `podman {other}`"));
                cx.eprintln("Try 'podman --help' for more information");
                125
            } else {
                cx.eprintln(&format!("docker: '{other}' is not a docker command."));
                cx.eprintln("See 'docker --help'");
                1
            }
        }
        None => {
            cx.eprintln(&format!(
                "rocm-learn sim: the simulated {runtime} knows `{runtime} run`, `{runtime} images` and `{runtime} --version`"
            ));
            1
        }
    }
}

/// docker talks to a root daemon through its socket: root (or the docker group) only.
fn connect(cx: &mut Ctx, runtime: &str, sub: &str) -> Result<(), i32> {
    if runtime == "podman" || cx.caller.is_root() {
        return Ok(());
    }
    let docker_gid = accounts::Groups::load(cx.root)
        .by_name("docker")
        .map(|g| g.gid);
    if docker_gid.is_some_and(|g| cx.gids().contains(&g)) {
        return Ok(());
    }
    let endpoint = if sub == "run" {
        "containers/create"
    } else {
        "images/json"
    };
    cx.eprintln(&format!("docker: permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock: Post \"http://%2Fvar%2Frun%2Fdocker.sock/v1.24/{endpoint}\": dial unix /var/run/docker.sock: connect: permission denied."));
    cx.eprintln(&format!("See 'docker {sub} --help'."));
    Err(126)
}

fn run_container(cx: &mut Ctx, runtime: &str, args: &[String]) -> i32 {
    if let Err(code) = connect(cx, runtime, "run") {
        return code;
    }
    let (opts, rest) = match parse(args) {
        Ok(x) => x,
        Err(e) => return usage_error(cx, runtime, &e),
    };
    let Some(image_name) = rest.first() else {
        if runtime == "podman" {
            cx.eprintln("Error: requires at least 1 arg(s), only received 0");
        } else {
            cx.eprintln("docker: 'docker run' requires at least 1 argument.");
            cx.eprintln("See 'docker run --help'.");
        }
        return 125;
    };
    let Some(img) = image(image_name) else {
        let full = if image_name.contains(':') {
            image_name.clone()
        } else {
            format!("{image_name}:latest")
        };
        cx.eprintln(&format!("Unable to find image '{full}' locally"));
        return daemon_error(
            cx,
            runtime,
            "Get \"https://registry-1.docker.io/v2/\": dial tcp: lookup registry-1.docker.io: Temporary failure in name resolution",
        );
    };
    let rootless = runtime == "podman" && !cx.caller.is_root();
    // Docker knows --gpus but hands it to a device driver only NVIDIA's runtime provides.
    if runtime == "docker" && opts.gpus.is_some() {
        let msg = "could not select device driver \"\" with capabilities: [[gpu]]".to_string();
        record_failed(cx, runtime, rootless, img, &rest[1..], &opts, &msg);
        return daemon_error(cx, runtime, &msg);
    }
    let created = devices(cx.state, &opts).and_then(|nodes| {
        let (uid, gids) = credentials(cx, img, &opts, runtime, rootless)?;
        Ok((nodes, uid, gids))
    });
    let (nodes, uid, gids) = match created {
        Ok(x) => x,
        Err(msg) => {
            // A group name the image lacks stops the container before rocminfo; the attempt
            // is kept so the checklist can say why (names are looked up inside the image).
            if msg.starts_with("Unable to find group") {
                record_failed(cx, runtime, rootless, img, &rest[1..], &opts, &msg);
            }
            return daemon_error(cx, runtime, &msg);
        }
    };
    let mut run = Run {
        runtime: runtime.into(),
        rootless,
        image: img.name.into(),
        command: rest[1..].to_vec(),
        devices: nodes.iter().map(|n| n.path.clone()).collect(),
        group_add: opts.group_add.clone(),
        uid,
        gids,
        security_opt: opts.security_opt.clone(),
        ipc: opts.ipc.clone(),
        shm_size: opts.shm_size.clone(),
        gpus_found: 0,
        kfd_error: None,
    };
    let code = inside(cx, img, &mut run, &nodes);
    if let Err(e) = record(cx.root, run) {
        cx.eprintln(&format!(
            "rocm-learn sim: cannot record the container run: {e}"
        ));
    }
    code
}

/// Keeps a run the daemon refused before the command started, with the daemon's words as
/// the reason rocminfo found nothing.
fn record_failed(
    cx: &mut Ctx,
    runtime: &str,
    rootless: bool,
    img: &Image,
    command: &[String],
    opts: &Opts,
    msg: &str,
) {
    let failed = Run {
        runtime: runtime.into(),
        rootless,
        image: img.name.into(),
        command: command.to_vec(),
        devices: devices(cx.state, opts)
            .map(|n| n.iter().map(|d| d.path.clone()).collect())
            .unwrap_or_default(),
        group_add: opts.group_add.clone(),
        uid: img.uid,
        gids: Vec::new(),
        security_opt: opts.security_opt.clone(),
        ipc: opts.ipc.clone(),
        shm_size: opts.shm_size.clone(),
        gpus_found: 0,
        kfd_error: Some(msg.to_string()),
    };
    if let Err(e) = record(cx.root, failed) {
        cx.eprintln(&format!(
            "rocm-learn sim: cannot record the container run: {e}"
        ));
    }
}

/// The CLI's complaint about the command line; exit 125.
fn usage_error(cx: &mut Ctx, runtime: &str, e: &str) -> i32 {
    if runtime == "podman" {
        cx.eprintln(&format!("Error: {e}"));
        cx.eprintln("See 'podman run --help'");
    } else {
        cx.eprintln(e);
        cx.eprintln("See 'docker run --help'.");
    }
    125
}

/// The host nodes the container gets: `--device` ones, each of which must exist, or with
/// `--privileged` whatever the GPU has. `Err` is the daemon's complaint.
fn devices(state: &State, opts: &Opts) -> Result<Vec<DevNode>, String> {
    let wanted: Vec<String> = if opts.privileged {
        vec!["/dev/kfd".into(), "/dev/dri".into()]
    } else {
        opts.devices.clone()
    };
    let mut nodes: Vec<DevNode> = Vec::new();
    for d in &wanted {
        let found = expand_device(state, d);
        if found.is_empty() && !opts.privileged {
            return Err(format!(
                "error gathering device information while adding custom device \"{d}\": no such file or directory"
            ));
        }
        nodes.extend(found);
    }
    Ok(nodes)
}

/// The container process's uid and groups in host numbers: the image's user or `--user`, plus
/// `--group-add` (names from the image's /etc/group). Rootless podman maps root to the
/// caller and holds host groups only with `keep-groups`. `Err` is the daemon's complaint.
fn credentials(
    cx: &Ctx,
    img: &Image,
    opts: &Opts,
    runtime: &str,
    rootless: bool,
) -> Result<(u32, Vec<u32>), String> {
    let (uid, mut gids) = match opts.user.as_deref() {
        None => (img.uid, img.gids.to_vec()),
        Some(u) => {
            let name = u.split(':').next().unwrap_or(u);
            let by_name = (name == img.user)
                .then_some(img.uid)
                .or((name == "root").then_some(0));
            match by_name.or(name.parse().ok()) {
                Some(0) => (0, vec![0]),
                Some(n) => (n, vec![n]),
                None => {
                    return Err(format!(
                        "unable to find user {name}: no matching entries in passwd file"
                    ));
                }
            }
        }
    };
    if rootless {
        // A user namespace: the image's groups are subordinate ids, not host groups.
        gids.clear();
    }
    for g in &opts.group_add {
        if g == "keep-groups" && runtime == "podman" {
            if rootless {
                gids.extend(cx.gids());
            }
            continue;
        }
        let gid = match g.parse::<u32>() {
            Ok(n) => n,
            Err(_) => match img.groups().find(|(name, _)| name == g) {
                Some((_, n)) => *n,
                None => {
                    return Err(format!(
                        "Unable to find group {g}: no matching entries in group file"
                    ));
                }
            },
        };
        if !rootless {
            gids.push(gid);
        }
    }
    let uid = if rootless && uid == 0 {
        cx.caller.uid
    } else {
        uid
    };
    let mut seen = Vec::new();
    gids.retain(|g| {
        let new = !seen.contains(g);
        seen.push(*g);
        new
    });
    Ok((uid, gids))
}

/// Runs the container's command.
fn inside(cx: &mut Ctx, img: &Image, run: &mut Run, nodes: &[DevNode]) -> i32 {
    let Some(cmd) = run.command.first().cloned() else {
        // The images' default command is an interactive shell; without a terminal to keep
        // it, it exits at once.
        return 0;
    };
    match cmd.as_str() {
        "rocminfo" | "/opt/rocm/bin/rocminfo" => rocminfo(cx, run, nodes),
        "groups" => {
            let names = group_names(img, run);
            for g in &names {
                if g.parse::<u32>().is_ok() {
                    cx.eprintln(&format!("groups: cannot find name for group ID {g}"));
                }
            }
            cx.println(&names.join(" "));
            0
        }
        "id" => {
            let user = if run.uid == 0 { "root" } else { img.user };
            let show = |g: &u32| match img.groups().find(|(_, n)| n == g) {
                Some((name, _)) => format!("{g}({name})"),
                None if *g == img.uid && *g != 0 => format!("{g}({})", img.user),
                None => g.to_string(),
            };
            let primary = run.gids.first().copied().unwrap_or(run.uid);
            let all: Vec<String> = run.gids.iter().map(show).collect();
            cx.println(&format!(
                "uid={}({user}) gid={} groups={}",
                run.uid,
                show(&primary),
                all.join(",")
            ));
            0
        }
        other => {
            cx.eprintln(&format!(
                "rocm-learn sim: the simulated container runs rocminfo, groups and id; it does not run {other}"
            ));
            127
        }
    }
}

/// `groups` inside: names from the image's /etc/group, bare numbers for the rest.
fn group_names(img: &Image, run: &Run) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for g in &run.gids {
        let name = img
            .groups()
            .find(|(_, n)| n == g)
            .map(|(name, _)| name.to_string())
            .unwrap_or_else(|| {
                if *g == img.uid && *g != 0 {
                    img.user.to_string()
                } else {
                    g.to_string()
                }
            });
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// rocminfo inside the container: the host's driver, the container's /dev and credentials.
/// Start-up failures read as in containers (no login name to check groups with).
fn rocminfo(cx: &mut Ctx, run: &mut Run, nodes: &[DevNode]) -> i32 {
    let root = cx.root.to_path_buf();
    let kfd = nodes.iter().find(|n| n.path == "/dev/kfd");
    let error = match kfd {
        _ if !cx.state.is_module_loaded() => None,
        None => Some("No such file or directory"),
        Some(n) if !may_open(&root, n, run.uid, &run.gids) => Some("Permission denied"),
        Some(_) => None,
    };
    if let Some(e) = error {
        let first = match &cx.state.driver {
            Some(super::super::state::Driver::Dkms { version }) => {
                format!("ROCk module version {version} is loaded")
            }
            _ => "ROCk module is loaded".into(),
        };
        cx.println(&format!("{WHT}{first}{RESET}"));
        cx.println(&format!(
            "{RED}Unable to open /dev/kfd read-write: {e}{RESET}"
        ));
        cx.println(&format!(
            "{RED}Failed to get user name to check for video group membership{RESET}"
        ));
        run.kfd_error = Some(e.into());
        return 1;
    }
    // The GPUs whose render node the container has and may open; rocminfo itself runs as
    // root on a copy of the machine holding just those.
    let mut view = cx.state.clone();
    let usable = |g: &super::super::machine::Gpu| {
        nodes.iter().any(|n| {
            n.path == format!("/dev/dri/renderD{}", g.render_minor)
                && may_open(&root, n, run.uid, &run.gids)
        })
    };
    view.machine = Machine {
        gpus: cx
            .state
            .machine
            .gpus
            .iter()
            .filter(|g| usable(g))
            .cloned()
            .collect(),
        ..cx.state.machine.clone()
    };
    run.gpus_found = view.machine.gpus.len();
    let mut inner = Ctx {
        host: cx.host,
        root: &root,
        state: &mut view,
        caller: cx.caller.as_root(),
        console: &mut *cx.console,
        out: Default::default(),
        env: cx.env,
    };
    let code = super::rocminfo::run(&mut inner, &[]);
    let out = inner.out;
    cx.out.stdout.extend_from_slice(&out.stdout);
    cx.out.stderr.push_str(&out.stderr);
    code
}

/// For the lab's checks: the host's render gid and whether a run's process holds it.
pub fn holds_render(root: &Path, run: &Run) -> bool {
    accounts::Groups::load(root)
        .by_name("render")
        .is_some_and(|g| run.gids.contains(&g.gid))
}

#[cfg(test)]
mod tests {
    use super::super::testkit::Machine;

    #[test]
    fn run_option_forms_and_complaints() {
        let m = Machine::stage();
        let root = "uid=0(root) gid=0(root) groups=0(root)\n";
        for line in [
            "docker run -u root rocm/rocm-terminal id",
            "docker run -ituroot --rm rocm/rocm-terminal id",
            "docker run --user=root -d=true -- rocm/rocm-terminal id",
        ] {
            assert_eq!(m.root_runs(line).stdout, root, "{line}");
        }
        for (line, first) in [
            ("docker run -x img", "unknown shorthand flag: 'x' in -x"),
            ("docker run -itx img", "unknown shorthand flag: 'x' in -itx"),
            ("docker run --bogus=1 img", "unknown flag: --bogus"),
            ("docker run -u", "flag needs an argument: 'u' in -u"),
            ("docker run --device", "flag needs an argument: --device"),
            (
                "docker run --rm=maybe img",
                "invalid argument \"maybe\" for \"--rm\" flag: strconv.ParseBool: parsing \"maybe\": invalid syntax",
            ),
            ("podman run --bogus img", "Error: unknown flag: --bogus"),
        ] {
            assert_eq!(m.root_runs(line).complaint(), (first, 125), "{line}");
        }
    }
}
