//! `kubectl` against the simulated cluster: get/describe nodes and pods, label, create/apply/
//! delete -f (files, stdin, and the device plugin URLs), with the API server's and scheduler's
//! real messages. The scheduler runs at every call (there is no background process), and each
//! call advances the simulated clock a little so ages move.

mod apply;
mod change;
mod get;
mod label;

use std::collections::BTreeMap;

use super::super::Ctx;
use super::super::k8s::{self, Cluster, GPU_RESOURCE, Phase, Pod, human_age};
use super::{MONTHS, civil, opts, table, weekday};

const HELP: &str = "kubectl controls the Kubernetes cluster manager.

 Find more information at: https://kubernetes.io/docs/reference/kubectl/

Basic Commands (Beginner):
  create          Create a resource from a file or from stdin
  expose          Take a replication controller, service, deployment or pod and expose it as a new Kubernetes service
  run             Run a particular image on the cluster
  set             Set specific features on objects

Basic Commands (Intermediate):
  explain         Get documentation for a resource
  get             Display one or many resources
  edit            Edit a resource on the server
  delete          Delete resources by file names, stdin, resources and names, or by resources and label selector

Troubleshooting and Debugging Commands:
  describe        Show details of a specific resource or group of resources
  logs            Print the logs for a container in a pod

Advanced Commands:
  apply           Apply a configuration to a resource by file name or stdin
  patch           Update fields of a resource

Settings Commands:
  label           Update the labels on a resource

Other Commands:
  version         Print the client and server version information

Usage:
  kubectl [flags] [options]

Use \"kubectl <command> --help\" for more information about a given command.
Use \"kubectl options\" for a list of global command-line options (applies to all commands).
";

#[derive(Default)]
struct Opts {
    namespace: Option<String>,
    all_ns: bool,
    output: Option<String>,
    show_labels: bool,
    files: Vec<String>,
    overwrite: bool,
    all: bool,
    /// `patch -p` and `--type`.
    patch: Option<String>,
    patch_file: Option<String>,
    patch_type: Option<String>,
    /// `run`'s flags.
    image: Option<String>,
    restart: Option<String>,
    overrides: Option<String>,
    override_type: Option<String>,
    command: bool,
    /// `run -i`, `-t`, `--attach`; `--rm`.
    attach: bool,
    rm: bool,
    /// `version --client`.
    client: bool,
    /// `logs -c`.
    container: Option<String>,
    /// `--dry-run=client|server|none` as typed; `Some("")` for a bare `--dry-run`.
    dry_run: Option<String>,
    words: Vec<String>,
    /// The words after `--` (`kubectl run NAME --image=I -- ARGS`).
    after_dash: Vec<String>,
}

/// A flag kubectl takes here, by what it sets.
#[derive(Clone, Copy)]
enum Flag {
    Namespace,
    Output,
    File,
    Patch,
    PatchFile,
    PatchType,
    Image,
    Restart,
    Overrides,
    OverrideType,
    Container,
    AllNamespaces,
    ShowLabels,
    Overwrite,
    All,
    Command,
    Attach,
    Rm,
    Client,
    DryRun,
    /// Accepted and without effect on the simulated cluster.
    Ignored,
}

fn long_flag(name: &str) -> Option<Flag> {
    use Flag::*;
    Some(match name {
        "namespace" => Namespace,
        "output" => Output,
        "filename" => File,
        "patch" => Patch,
        "patch-file" => PatchFile,
        "type" => PatchType,
        "image" => Image,
        "restart" => Restart,
        "overrides" => Overrides,
        "override-type" => OverrideType,
        "container" => Container,
        "all-namespaces" => AllNamespaces,
        "show-labels" => ShowLabels,
        "overwrite" => Overwrite,
        "all" => All,
        "command" => Command,
        "stdin" | "tty" | "attach" => Attach,
        "rm" => Rm,
        "client" => Client,
        "dry-run" => DryRun,
        "validate" | "save-config" => Ignored,
        _ => return None,
    })
}

fn short_flag(c: char) -> Option<Flag> {
    use Flag::*;
    Some(match c {
        'n' => Namespace,
        'o' => Output,
        'f' => File,
        'p' => Patch,
        'c' => Container,
        'A' => AllNamespaces,
        'i' | 't' => Attach,
        _ => return None,
    })
}

/// Stores a flag: its value, or `true` for a switch (a value given to a switch is dropped,
/// as `-A=false` still lists every namespace here).
fn set(o: &mut Opts, flag: Flag, value: Option<String>) {
    use Flag::*;
    match flag {
        File => o.files.extend(value),
        Namespace => o.namespace = value,
        Output => o.output = value,
        Patch => o.patch = value,
        PatchFile => o.patch_file = value,
        PatchType => o.patch_type = value,
        Image => o.image = value,
        Restart => o.restart = value,
        Overrides => o.overrides = value,
        OverrideType => o.override_type = value,
        Container => o.container = value,
        AllNamespaces => o.all_ns = true,
        ShowLabels => o.show_labels = true,
        Overwrite => o.overwrite = true,
        All => o.all = true,
        Command => o.command = true,
        Attach => o.attach = true,
        Rm => o.rm = true,
        Client => o.client = true,
        DryRun => o.dry_run = Some(value.unwrap_or_default()),
        Ignored => {}
    }
}

impl Flag {
    fn takes_value(self) -> bool {
        use Flag::*;
        matches!(
            self,
            Namespace
                | Output
                | File
                | Patch
                | PatchFile
                | PatchType
                | Image
                | Restart
                | Overrides
                | OverrideType
                | Container
        )
    }
}

/// Flags anywhere among the words; `--` ends them (`kubectl run NAME --image=I -- ARGS`).
fn parse(args: &[String]) -> Result<Opts, String> {
    use opts::Token::{DashDash, Long, Short, Value};
    let mut p = opts::parser(args);
    let mut o = Opts::default();
    while let Some(t) = opts::next_token(&mut p) {
        match t {
            DashDash => {
                o.after_dash = opts::remaining(&mut p);
                break;
            }
            Long(name, glued) => {
                let flag = long_flag(&name).ok_or(format!("error: unknown flag: --{name}"))?;
                let value = flag_value(&mut p, flag, glued, &format!("--{name}"))?;
                set(&mut o, flag, value);
            }
            Short(c) => short(&mut o, &mut p, c)?,
            Value(w) => o.words.push(w),
        }
    }
    Ok(o)
}

/// The value a flag takes: glued to it or the next word, whatever that looks like.
fn flag_value(
    p: &mut lexopt::Parser,
    flag: Flag,
    glued: Option<String>,
    typed: &str,
) -> Result<Option<String>, String> {
    if !flag.takes_value() || glued.is_some() {
        return Ok(glued);
    }
    opts::value(p)
        .ok()
        .map(Some)
        .ok_or(format!("error: flag needs an argument: {typed}"))
}

/// A word starting with one dash, read whole as pflag reads it: `-n=NS` and `-nNS` carry the
/// value, `-it` is the one cluster of switches; otherwise the first letter is to blame.
fn short(o: &mut Opts, p: &mut lexopt::Parser, c: char) -> Result<(), String> {
    let rest = opts::rest(p).unwrap_or_default();
    let unknown = |word: &str| format!("error: unknown shorthand flag: '{c}' in -{word}");
    // `-x=v`: the flag is the two characters before `=`.
    if let Some(v) = rest.strip_prefix('=').filter(|_| c.is_ascii()) {
        let flag = short_flag(c).ok_or_else(|| unknown(&c.to_string()))?;
        set(o, flag, Some(v.to_string()));
        return Ok(());
    }
    let word = format!("{c}{rest}");
    match short_flag(c) {
        Some(flag) if rest.is_empty() => {
            let value = flag_value(p, flag, None, &format!("-{c}"))?;
            set(o, flag, value);
        }
        _ if word == "it" || word == "ti" => o.attach = true,
        // `-owide`: the flags with a value take the rest of the word; `-f` does not.
        Some(flag) if "onpc".contains(c) => set(o, flag, Some(rest)),
        _ => return Err(unknown(&word)),
    }
    Ok(())
}

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    if cx.state.cluster.is_none() {
        cx.eprintln("The connection to the server localhost:8080 was refused - did you specify the right host or port?");
        return 1;
    }
    if args.is_empty() || args.iter().any(|a| a == "-h" || a == "--help") && args.len() == 1 {
        cx.print(HELP);
        return 0;
    }
    let opts = match parse(args) {
        Ok(o) => o,
        Err(e) => {
            cx.eprintln(&e);
            let verb = args
                .iter()
                .find(|a| !a.starts_with('-'))
                .cloned()
                .unwrap_or_default();
            if verb.is_empty() {
                cx.eprintln("See 'kubectl --help' for usage.");
            } else {
                cx.eprintln(&format!("See 'kubectl {verb} --help' for usage."));
            }
            return 1;
        }
    };
    let dry = match dry_run(&opts) {
        Ok(d) => d,
        Err(e) => {
            cx.eprintln(&e);
            return 1;
        }
    };
    cx.state.uptime += 7;
    let Some(mut cluster) = cx.state.cluster.take() else {
        return 1;
    };
    sync(cx, &mut cluster);
    let code = match dry {
        None => verb(cx, &mut cluster, &opts),
        Some(mark) => {
            // A dry run works on a copy that is thrown away, as the API server (server) or
            // kubectl itself (client) validates and prints without persisting anything.
            let mut copy = cluster.clone();
            let from = cx.out.stdout.len();
            let code = verb(cx, &mut copy, &opts);
            mark_dry_run(cx, from, mark);
            code
        }
    };
    sync(cx, &mut cluster);
    cx.state.cluster = Some(cluster);
    code
}

/// The verbs that take `--dry-run` in kubectl.
const DRY_RUN_VERBS: &[&str] = &["create", "apply", "delete", "label", "patch", "run"];

/// `--dry-run`'s strategy: `None` for a real change, else the mark kubectl appends to each
/// line it prints. Messages as kubectl's `GetDryRunStrategy` words them.
fn dry_run(o: &Opts) -> Result<Option<&'static str>, String> {
    let Some(v) = o.dry_run.as_deref() else {
        return Ok(None);
    };
    let verb = o.words.first().map(String::as_str).unwrap_or("");
    if !DRY_RUN_VERBS.contains(&verb) {
        return Err(format!(
            "error: unknown flag: --dry-run\nSee 'kubectl {verb} --help' for usage."
        ));
    }
    match v {
        "" => Err("error: --dry-run flag without a value was specified. A value must be set: \"none\", \"server\", or \"client\".".into()),
        "none" => Ok(None),
        "client" => Ok(Some("(dry run)")),
        "server" => Ok(Some("(server dry run)")),
        other => Err(format!(
            "error: Invalid dry-run value ({other}). Must be \"none\", \"server\", or \"client\"."
        )),
    }
}

/// Appends ` (dry run)` to each line printed since `from`, as kubectl's printers do.
fn mark_dry_run(cx: &mut Ctx, from: usize, mark: &str) {
    let printed = String::from_utf8_lossy(&cx.out.stdout[from..]).into_owned();
    let marked: String = printed
        .lines()
        .map(|l| {
            if l.is_empty() {
                "\n".to_string()
            } else {
                format!("{l} {mark}\n")
            }
        })
        .collect();
    cx.out.stdout.truncate(from);
    cx.out.stdout.extend_from_slice(marked.as_bytes());
}

/// Reconciles with the machine's current driver state and the labeller's labels.
fn sync(cx: &Ctx, c: &mut Cluster) {
    let g = cx.state.machine.gpus.first();
    let labels: Vec<(String, String)> = g
        .map(|g| {
            vec![
                ("amd.com/gpu.family".to_string(), g.family.clone()),
                (
                    "amd.com/gpu.device-id".to_string(),
                    format!("{:04x}", g.chip_id),
                ),
                (
                    "amd.com/gpu.product-name".to_string(),
                    g.product_label.clone(),
                ),
                ("amd.com/gpu.vram".to_string(), g.vram_label.clone()),
                (
                    "amd.com/gpu.cu-count".to_string(),
                    g.compute_units.to_string(),
                ),
                (
                    format!("beta.amd.com/gpu.family.{}", g.family),
                    "1".to_string(),
                ),
            ]
        })
        .unwrap_or_default();
    c.reconcile(cx.state.now(), cx.state.driver.is_some(), &labels);
}

fn verb(cx: &mut Ctx, c: &mut Cluster, o: &Opts) -> i32 {
    let Some(v) = o.words.first() else {
        cx.print(HELP);
        return 0;
    };
    let rest = &o.words[1..];
    match v.as_str() {
        "get" => get::get(cx, c, o, rest),
        "describe" => describe(cx, c, o, rest),
        "create" if rest.first().is_some_and(|w| w == "namespace" || w == "ns") => {
            change::create_namespace(cx, c, &rest[1..])
        }
        "create" | "apply" => apply::create(cx, c, o, v == "apply"),
        "delete" => apply::delete(cx, c, o, rest),
        "label" => label::label(cx, c, o, rest),
        "patch" => change::patch(cx, c, o, rest),
        "run" => change::run(cx, c, o, rest),
        "logs" => change::logs(cx, c, o, rest),
        "version" => {
            cx.println(&format!("Client Version: {}", c.version));
            cx.println("Kustomize Version: v5.0.4-0.20230601165947-6ce0bf390ce3");
            if !o.client {
                cx.println(&format!("Server Version: {}", c.version));
            }
            0
        }
        "cluster-info" => {
            cx.println("Kubernetes control plane is running at https://10.0.0.10:6443");
            cx.println("CoreDNS is running at https://10.0.0.10:6443/api/v1/namespaces/kube-system/services/kube-dns:dns/proxy");
            cx.println("");
            cx.println(
                "To further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.",
            );
            0
        }
        other => {
            cx.eprintln(&format!(
                "error: unknown command \"{other}\" for \"kubectl\""
            ));
            cx.eprintln("Run 'kubectl --help' for usage.");
            1
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Node,
    Pod,
    DaemonSet,
    Namespace,
}

fn kind(word: &str) -> Option<Kind> {
    Some(match word.to_lowercase().as_str() {
        "node" | "nodes" | "no" => Kind::Node,
        "pod" | "pods" | "po" => Kind::Pod,
        "daemonset" | "daemonsets" | "ds" | "daemonsets.apps" | "daemonset.apps" => Kind::DaemonSet,
        "namespace" | "namespaces" | "ns" => Kind::Namespace,
        _ => return None,
    })
}

fn plural(k: Kind) -> &'static str {
    match k {
        Kind::Node => "nodes",
        Kind::Pod => "pods",
        Kind::DaemonSet => "daemonsets.apps",
        Kind::Namespace => "namespaces",
    }
}

/// `pods`, `pod/NAME`, `nodes NAME...` -> kind and names.
fn target(cx: &mut Ctx, words: &[String]) -> Result<(Kind, Vec<String>), i32> {
    let Some(first) = words.first() else {
        cx.eprintln("You must specify the type of resource to get. Use \"kubectl api-resources\" for a complete list of supported resources.");
        cx.eprintln("");
        cx.eprintln("error: Required resource not specified.");
        cx.eprintln("Use \"kubectl explain <resource>\" for a detailed description of that resource (e.g. kubectl explain pods).");
        cx.eprintln("See 'kubectl get -h' for help and examples");
        return Err(1);
    };
    let (k, inline_name) = resource(cx, first)?;
    let mut names: Vec<String> = inline_name.into_iter().collect();
    for w in &words[1..] {
        if let Some((r, n)) = w.split_once('/') {
            if kind(r) != Some(k) {
                cx.eprintln("error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'");
                return Err(1);
            }
            names.push(n.to_string());
        } else {
            names.push(w.clone());
        }
    }
    Ok((k, names))
}

/// `pods` or `pod/NAME`: the kind, and the name when there is one.
fn resource(cx: &mut Ctx, word: &str) -> Result<(Kind, Option<String>), i32> {
    let (res, name) = match word.split_once('/') {
        Some((r, n)) => (r, Some(n.to_string())),
        None => (word, None),
    };
    let Some(k) = kind(res) else {
        cx.eprintln(&format!(
            "error: the server doesn't have a resource type \"{res}\""
        ));
        return Err(1);
    };
    Ok((k, name))
}

/// The API server's NotFound for each of `names` that `exists` denies; 1 when there is one.
fn missing(cx: &mut Ctx, plural: &str, names: &[String], exists: impl Fn(&str) -> bool) -> i32 {
    let mut code = 0;
    for n in names.iter().filter(|n| !exists(n)) {
        cx.eprintln(&format!(
            "Error from server (NotFound): {plural} \"{n}\" not found"
        ));
        code = 1;
    }
    code
}

fn ns(o: &Opts) -> String {
    o.namespace.clone().unwrap_or_else(|| "default".into())
}

fn age(cx: &Ctx, t: i64) -> String {
    human_age(cx.state.now() - t)
}

fn timestamp(t: i64) -> String {
    let (y, mo, d, h, mi, s) = civil(t);
    format!(
        "{}, {d:02} {} {y} {h:02}:{mi:02}:{s:02} +0000",
        weekday(t),
        MONTHS[(mo - 1) as usize]
    )
}

fn check_output(cx: &mut Ctx, o: &Opts) -> Result<(), i32> {
    match o.output.as_deref() {
        None | Some("wide") | Some("name") => Ok(()),
        Some(f) => {
            cx.eprintln(&format!("error: unable to match a printer suitable for the output format \"{f}\", allowed formats are: name,wide"));
            Err(1)
        }
    }
}

fn describe(cx: &mut Ctx, c: &Cluster, o: &Opts, words: &[String]) -> i32 {
    let (k, names) = match target(cx, words) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let namespace = ns(o);
    let mut blocks = Vec::new();
    let code = match k {
        Kind::Node => {
            for n in &c.nodes {
                if names.is_empty() || names.contains(&n.name) {
                    blocks.push(describe_node(cx, c, n));
                }
            }
            missing(cx, "nodes", &names, |n| c.nodes.iter().any(|x| x.name == n))
        }
        Kind::Pod => {
            for p in c.pods.iter().filter(|p| {
                (o.all_ns || p.namespace == namespace)
                    && (names.is_empty() || names.contains(&p.name))
            }) {
                blocks.push(describe_pod(cx, c, p));
            }
            if names.is_empty() && blocks.is_empty() {
                cx.eprintln(&format!("No resources found in {namespace} namespace."));
            }
            missing(cx, "pods", &names, |n| {
                c.pods
                    .iter()
                    .any(|p| p.name == n && p.namespace == namespace)
            })
        }
        Kind::DaemonSet | Kind::Namespace => {
            cx.eprintln(&format!(
                "error: describing {} is not available on the simulated cluster; use kubectl get",
                plural(k)
            ));
            return 1;
        }
    };
    let text = blocks.join("\n\n");
    if !text.is_empty() {
        cx.println(&text);
    }
    code
}

fn kv_block(pairs: &[(&str, String)], indent: &str) -> String {
    let w = pairs.iter().map(|(k, _)| k.len() + 1).max().unwrap_or(0) + 2;
    pairs
        .iter()
        .map(|(k, v)| format!("{indent}{}{v}\n", super::pad(&format!("{k}:"), w)))
        .collect()
}

fn multi(label_w: usize, items: &[String]) -> String {
    if items.is_empty() {
        return "<none>".into();
    }
    let sep = format!("\n{}", " ".repeat(label_w));
    items.join(&sep)
}

/// `describe node`: identity, resources, system info, its pods and what they hold.
fn describe_node(cx: &Ctx, c: &Cluster, n: &k8s::Node) -> String {
    let gpu = c.gpu_capacity(n, cx.state.driver.is_some());
    let pods: Vec<&Pod> = c
        .pods
        .iter()
        .filter(|p| p.node.as_deref() == Some(n.name.as_str()))
        .collect();
    let mut s = node_identity(n);
    s.push_str(&node_resources(n, gpu));
    s.push_str(&node_system_info(c, n));
    s.push_str(&node_pods(cx, &pods));
    s.push_str(&node_allocated(&pods, gpu));
    s.push_str(&format!("{}<none>", super::pad("Events:", 21)));
    s
}

/// Name, roles, labels, annotations, creation, taints and addresses.
fn node_identity(n: &k8s::Node) -> String {
    const W: usize = 20;
    let mut s = String::new();
    let labels: Vec<String> = n.labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let line = |s: &mut String, k: &str, v: &str| {
        s.push_str(&format!("{}{v}\n", super::pad(&format!("{k}:"), W)))
    };
    line(&mut s, "Name", &n.name);
    line(
        &mut s,
        "Roles",
        &if n.roles.is_empty() {
            "<none>".into()
        } else {
            n.roles.join(",")
        },
    );
    line(&mut s, "Labels", &multi(W, &labels));
    line(
        &mut s,
        "Annotations",
        &multi(
            W,
            &[
                "node.alpha.kubernetes.io/ttl: 0".into(),
                "volumes.kubernetes.io/controller-managed-attach-detach: true".into(),
            ],
        ),
    );
    line(&mut s, "CreationTimestamp", &timestamp(n.created));
    line(&mut s, "Taints", "<none>");
    line(&mut s, "Unschedulable", "false");
    s.push_str("Addresses:\n");
    s.push_str(&kv_block(
        &[
            ("InternalIP", n.internal_ip.clone()),
            ("Hostname", n.name.clone()),
        ],
        "  ",
    ));
    s
}

/// Capacity and Allocatable: amd.com/gpu only while the device plugin advertises it.
fn node_resources(n: &k8s::Node, gpu: Option<u32>) -> String {
    let mut s = String::new();
    let mut cap: BTreeMap<&str, String> = BTreeMap::new();
    cap.insert("cpu", n.cpu.to_string());
    cap.insert("ephemeral-storage", "959863856Ki".into());
    cap.insert("hugepages-1Gi", "0".into());
    cap.insert("hugepages-2Mi", "0".into());
    cap.insert("memory", format!("{}Ki", n.memory_ki));
    cap.insert("pods", "110".into());
    if let Some(g) = gpu {
        cap.insert(GPU_RESOURCE, g.to_string());
    }
    let mut alloc = cap.clone();
    alloc.insert("ephemeral-storage", "884609975318".into());
    alloc.insert(
        "memory",
        format!("{}Ki", n.memory_ki.saturating_sub(102400)),
    );
    let res_block = |m: &BTreeMap<&str, String>| {
        let pairs: Vec<(&str, String)> = m.iter().map(|(k, v)| (*k, v.clone())).collect();
        kv_block(&pairs, "  ")
    };
    s.push_str("Capacity:\n");
    s.push_str(&res_block(&cap));
    s.push_str("Allocatable:\n");
    s.push_str(&res_block(&alloc));
    s
}

fn node_system_info(c: &Cluster, n: &k8s::Node) -> String {
    let mut s = String::new();
    s.push_str("System Info:\n");
    s.push_str(&kv_block(
        &[
            ("Machine ID", "3f0c2e5f9a8b4c1d9e7f6a5b4c3d2e1f".into()),
            ("System UUID", "4c4c4544-0042-3510-8052-b7c04f4e3432".into()),
            ("Boot ID", "b1e5a4f0-6c2d-4e8a-9f3b-7d1c0e2a5b6f".into()),
            ("Kernel Version", n.kernel.clone()),
            ("OS Image", n.os_image.clone()),
            ("Operating System", "linux".into()),
            ("Architecture", "amd64".into()),
            ("Container Runtime Version", "containerd://1.7.22".into()),
            ("Kubelet Version", c.version.clone()),
            ("Kube-Proxy Version", c.version.clone()),
        ],
        "  ",
    ));
    s
}

/// The Non-terminated Pods table.
fn node_pods(cx: &Ctx, pods: &[&Pod]) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "{}({} in total)\n",
        super::pad("Non-terminated Pods:", 30),
        pods.len()
    ));
    let mut rows = vec![
        [
            "Namespace",
            "Name",
            "CPU Requests",
            "CPU Limits",
            "Memory Requests",
            "Memory Limits",
            "Age",
        ]
        .iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>(),
        [
            "---------",
            "----",
            "------------",
            "----------",
            "---------------",
            "-------------",
            "---",
        ]
        .iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>(),
    ];
    for p in pods {
        rows.push(vec![
            p.namespace.clone(),
            p.name.clone(),
            "0 (0%)".into(),
            "0 (0%)".into(),
            "0 (0%)".into(),
            "0 (0%)".into(),
            age(cx, p.created),
        ]);
    }
    if !pods.is_empty() {
        s.push_str(&table(&rows, 2, "  "));
    }
    s
}

/// Allocated resources: what the node's pods request, GPUs included.
fn node_allocated(pods: &[&Pod], gpu: Option<u32>) -> String {
    let mut s = String::new();
    s.push_str(
        "Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n",
    );
    let used: u32 = pods.iter().map(|p| p.gpu_request()).sum();
    let mut rows = vec![
        vec!["Resource".to_string(), "Requests".into(), "Limits".into()],
        vec!["--------".to_string(), "--------".into(), "------".into()],
        vec!["cpu".to_string(), "0 (0%)".into(), "0 (0%)".into()],
        vec!["memory".to_string(), "0 (0%)".into(), "0 (0%)".into()],
        vec![
            "ephemeral-storage".to_string(),
            "0 (0%)".into(),
            "0 (0%)".into(),
        ],
        vec![
            "hugepages-1Gi".to_string(),
            "0 (0%)".into(),
            "0 (0%)".into(),
        ],
        vec![
            "hugepages-2Mi".to_string(),
            "0 (0%)".into(),
            "0 (0%)".into(),
        ],
    ];
    if gpu.is_some() {
        rows.push(vec![
            GPU_RESOURCE.to_string(),
            used.to_string(),
            used.to_string(),
        ]);
    }
    s.push_str(&table(&rows, 2, "  "));
    s
}

/// `describe pod`: its identity, each container, conditions, volumes, scheduling, events.
fn describe_pod(cx: &Ctx, c: &Cluster, p: &Pod) -> String {
    let token = format!("kube-api-access-{}", k8s::suffix(&p.name));
    let mut s = pod_identity(c, p);
    s.push_str("Containers:\n");
    for ct in &p.containers {
        s.push_str(&pod_container(p, ct, &token));
    }
    s.push_str(&pod_conditions(p.phase == Phase::Running));
    s.push_str(&pod_volumes(&token));
    s.push_str(&pod_scheduling(p));
    s.push_str(&pod_events(cx, p));
    s
}

const POD_W: usize = 18;
/// The width of the section after the volumes, where tabwriter starts anew.
const POD_W2: usize = 29;

fn pod_line(s: &mut String, k: &str, v: &str) {
    s.push_str(&format!("{}{v}\n", super::pad(&format!("{k}:"), POD_W)))
}

/// Name, namespace, node, labels, status, IPs and owner.
fn pod_identity(c: &Cluster, p: &Pod) -> String {
    let mut s = String::new();
    pod_line(&mut s, "Name", &p.name);
    pod_line(&mut s, "Namespace", &p.namespace);
    pod_line(
        &mut s,
        "Priority",
        if p.owner.is_some() { "2000001000" } else { "0" },
    );
    pod_line(&mut s, "Service Account", "default");
    let node = match &p.node {
        Some(n) => {
            let ip = c
                .nodes
                .iter()
                .find(|x| &x.name == n)
                .map(|x| x.internal_ip.clone())
                .unwrap_or_default();
            format!("{n}/{ip}")
        }
        None => "<none>".into(),
    };
    pod_line(&mut s, "Node", &node);
    if let Some(t) = p.started {
        pod_line(&mut s, "Start Time", &timestamp(t));
    }
    let labels: Vec<String> = p.labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
    pod_line(&mut s, "Labels", &multi(POD_W, &labels));
    pod_line(&mut s, "Annotations", "<none>");
    pod_line(&mut s, "Status", p.phase.as_str());
    pod_line(&mut s, "IP", p.ip.as_deref().unwrap_or(""));
    match &p.ip {
        Some(ip) => s.push_str(&format!("IPs:\n  IP:  {ip}\n")),
        None => pod_line(&mut s, "IPs", "<none>"),
    }
    if let Some(o) = &p.owner {
        pod_line(&mut s, "Controlled By", o);
    }
    s
}

/// One container: image, state, limits and requests, mounts.
fn pod_container(p: &Pod, ct: &k8s::Container, token: &str) -> String {
    let running = p.phase == Phase::Running;
    let mut s = String::new();
    s.push_str(&format!("  {}:\n", ct.name));
    let mut pairs: Vec<(&str, String)> = Vec::new();
    if running {
        pairs.push((
            "Container ID",
            format!(
                "containerd://{}",
                hexish(&format!("{}{}", p.name, ct.name), 64)
            ),
        ));
    }
    pairs.push(("Image", ct.image.clone()));
    if running {
        pairs.push((
            "Image ID",
            format!(
                "docker.io/{}@sha256:{}",
                ct.image.split(':').next().unwrap_or(""),
                hexish(&ct.image, 64)
            ),
        ));
    }
    pairs.push(("Port", "<none>".into()));
    pairs.push(("Host Port", "<none>".into()));
    if running {
        pairs.push(("State", "Running".into()));
    } else if p.node.is_some() {
        pairs.push(("State", "Waiting".into()));
    }
    let w = pairs.iter().map(|(k, _)| k.len() + 1).max().unwrap_or(0) + 2;
    let w = w.max(if running { 16 } else { 12 });
    for (k, v) in &pairs {
        s.push_str(&format!("    {}{v}\n", super::pad(&format!("{k}:"), w)));
        if *k == "State" && running {
            s.push_str(&format!(
                "      {}{}\n",
                super::pad("Started:", w - 2),
                timestamp(p.started.unwrap_or(p.created))
            ));
        }
    }
    if running {
        s.push_str(&format!("    {}True\n", super::pad("Ready:", w)));
        s.push_str(&format!("    {}0\n", super::pad("Restart Count:", w)));
    }
    for (title, m) in [("Limits", &ct.limits), ("Requests", &ct.requests)] {
        if m.is_empty() {
            continue;
        }
        s.push_str(&format!("    {title}:\n"));
        let pairs: Vec<(&str, String)> = m.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
        s.push_str(&kv_block(&pairs, "      "));
    }
    // A new tabwriter section: the label is padded on its own.
    s.push_str("    Environment:  <none>\n");
    s.push_str(&format!(
        "    Mounts:\n      /var/run/secrets/kubernetes.io/serviceaccount from {token} (ro)\n"
    ));
    s
}

/// The Conditions table: all True once running, PodScheduled False while pending.
fn pod_conditions(running: bool) -> String {
    let mut s = String::new();
    s.push_str("Conditions:\n");
    let conds: Vec<(&str, &str)> = if running {
        vec![
            ("PodReadyToStartContainers", "True"),
            ("Initialized", "True"),
            ("Ready", "True"),
            ("ContainersReady", "True"),
            ("PodScheduled", "True"),
        ]
    } else {
        vec![("PodScheduled", "False")]
    };
    let mut rows = vec![vec!["Type".to_string(), "Status".into()]];
    for (t, v) in conds {
        rows.push(vec![t.to_string(), format!("{v} ")]);
    }
    s.push_str(&table(&rows, 3, "  "));
    s
}

/// The service-account token volume every pod gets.
fn pod_volumes(token: &str) -> String {
    let mut s = String::new();
    s.push_str("Volumes:\n");
    s.push_str(&format!("  {token}:\n"));
    s.push_str(&kv_block(
        &[
            (
                "Type",
                "Projected (a volume that contains injected data from multiple sources)".into(),
            ),
            ("TokenExpirationSeconds", "3607".into()),
            ("ConfigMapName", "kube-root-ca.crt".into()),
            ("ConfigMapOptional", "<nil>".into()),
            ("DownwardAPI", "true".into()),
        ],
        "    ",
    ));
    s
}

/// QoS class, node selectors and the default tolerations.
fn pod_scheduling(p: &Pod) -> String {
    let mut s = String::new();
    const W2: usize = POD_W2;
    let selectors: Vec<String> = p
        .node_selector
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    s.push_str(&format!("{}BestEffort\n", super::pad("QoS Class:", W2)));
    s.push_str(&format!(
        "{}{}\n",
        super::pad("Node-Selectors:", W2),
        multi(W2, &selectors)
    ));
    s.push_str(&format!(
        "{}{}\n",
        super::pad("Tolerations:", W2),
        multi(
            W2,
            &[
                "node.kubernetes.io/not-ready:NoExecute op=Exists for 300s".into(),
                "node.kubernetes.io/unreachable:NoExecute op=Exists for 300s".into()
            ]
        )
    ));
    s
}

/// The scheduler's and kubelet's events, or `<none>` for the cluster's own pods.
fn pod_events(cx: &Ctx, p: &Pod) -> String {
    let running = p.phase == Phase::Running;
    let mut s = String::new();
    const W2: usize = POD_W2;
    let mut events: Vec<Vec<String>> = Vec::new();
    if let Some(m) = &p.sched_message
        && p.owner.is_none()
    {
        let a = if p.sched_count > 1 {
            format!(
                "{} (x{} over {})",
                age(cx, p.sched_last),
                p.sched_count,
                age(cx, p.sched_first)
            )
        } else {
            age(cx, p.sched_last)
        };
        events.push(vec![
            "Warning".into(),
            "FailedScheduling".into(),
            a,
            "default-scheduler".into(),
            m.clone(),
        ]);
    }
    if running {
        events.extend(start_events(cx, p));
    }
    if events.is_empty() || p.owner.is_some() {
        s.push_str(&format!("{}<none>", super::pad("Events:", W2)));
    } else {
        s.push_str("Events:\n");
        let mut rows = vec![
            vec![
                "Type".to_string(),
                "Reason".into(),
                "Age".into(),
                "From".into(),
                "Message".into(),
            ],
            vec![
                "----".to_string(),
                "------".into(),
                "----".into(),
                "----".into(),
                "-------".into(),
            ],
        ];
        rows.extend(events);
        let t = table(&rows, 2, "  ");
        s.push_str(t.trim_end_matches('\n'));
    }
    s
}

/// The scheduler's and kubelet's events of a pod that started: scheduled, then each container
/// pulled, created and started.
fn start_events(cx: &Ctx, p: &Pod) -> Vec<Vec<String>> {
    let mut events = Vec::new();
    let t = p.started.unwrap_or(p.created);
    let node = p.node.clone().unwrap_or_default();
    events.push(vec![
        "Normal".into(),
        "Scheduled".into(),
        age(cx, t),
        "default-scheduler".into(),
        format!("Successfully assigned {}/{} to {node}", p.namespace, p.name),
    ]);
    for ct in &p.containers {
        events.push(vec![
            "Normal".into(),
            "Pulled".into(),
            age(cx, t),
            "kubelet".into(),
            format!(
                "Container image \"{}\" already present on machine",
                ct.image
            ),
        ]);
        events.push(vec![
            "Normal".into(),
            "Created".into(),
            age(cx, t),
            "kubelet".into(),
            format!("Created container {}", ct.name),
        ]);
        events.push(vec![
            "Normal".into(),
            "Started".into(),
            age(cx, t),
            "kubelet".into(),
            format!("Started container {}", ct.name),
        ]);
    }
    events
}

fn hexish(seed: &str, len: usize) -> String {
    let mut out = String::new();
    let mut i = 0;
    while out.len() < len {
        let chunk = k8s::suffix(&format!("{seed}{i}"));
        for b in chunk.bytes() {
            out.push_str(&format!("{:x}", b % 16));
        }
        i += 1;
    }
    out.truncate(len);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_anywhere_and_unknown_ones() {
        let a: Vec<String> = ["get", "pods", "-n", "kube-system", "-owide"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let o = parse(&a).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(o.namespace.as_deref(), Some("kube-system"));
        assert_eq!(o.output.as_deref(), Some("wide"));
        assert_eq!(o.words, ["get", "pods"]);
        let p: Vec<String> = ["patch", "node", "n", r#"-p{"a":"b=c"}"#]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let o = parse(&p).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(o.patch.as_deref(), Some(r#"{"a":"b=c"}"#));
        let r: Vec<String> = ["run", "x", "--image=i", "--", "sh", "-c", "echo a=b"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let o = parse(&r).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(o.after_dash, ["sh", "-c", "echo a=b"]);
        assert_eq!(o.words, ["run", "x"]);
        let b: Vec<String> = ["get", "--bogus"].iter().map(|s| s.to_string()).collect();
        assert_eq!(
            parse(&b).err().as_deref(),
            Some("error: unknown flag: --bogus")
        );
    }

    fn words(line: &str) -> Vec<String> {
        line.split(' ').map(String::from).collect()
    }

    fn parsed(line: &str) -> Opts {
        parse(&words(line)).unwrap_or_else(|e| panic!("{line}: {e}"))
    }

    fn refused(line: &str) -> String {
        parse(&words(line)).err().unwrap_or_default()
    }

    #[test]
    fn value_flags_in_every_form() {
        for line in [
            "get pods -n kube-system -o name",
            "get pods -nkube-system -oname",
            "get pods -n=kube-system -o=name",
            "get pods --namespace kube-system --output name",
            "get pods --namespace=kube-system --output=name",
        ] {
            let o = parsed(line);
            assert_eq!(o.namespace.as_deref(), Some("kube-system"), "{line}");
            assert_eq!(o.output.as_deref(), Some("name"), "{line}");
            assert_eq!(o.words, ["get", "pods"], "{line}");
        }
        // The next word is the value whatever it looks like; `-o=` in a cluster is the value's.
        assert_eq!(parsed("get pods -n --").namespace.as_deref(), Some("--"));
        assert_eq!(parsed("get pods -n =x").namespace.as_deref(), Some("=x"));
        assert_eq!(parsed("get pods -o==x").output.as_deref(), Some("=x"));
        assert_eq!(
            parsed("get pods -owide=x").output.as_deref(),
            Some("wide=x")
        );
        assert_eq!(parsed("get pods -o=").output.as_deref(), Some(""));
        assert_eq!(
            parsed("apply -f a --filename=b -f=c").files,
            ["a", "b", "c"]
        );
        assert_eq!(parsed("logs p -cx").container.as_deref(), Some("x"));
        let o = parsed("patch node n --type=json --patch-file f -p={}");
        assert_eq!(
            (
                o.patch_type.as_deref(),
                o.patch_file.as_deref(),
                o.patch.as_deref()
            ),
            (Some("json"), Some("f"), Some("{}"))
        );
        let o = parsed("run x --image i --restart=Never --overrides {} --override-type json");
        assert_eq!(
            (o.image.as_deref(), o.restart.as_deref()),
            (Some("i"), Some("Never"))
        );
        assert_eq!(
            (o.overrides.as_deref(), o.override_type.as_deref()),
            (Some("{}"), Some("json"))
        );
        assert_eq!(refused("get pods -n"), "error: flag needs an argument: -n");
        assert_eq!(
            refused("get pods --namespace"),
            "error: flag needs an argument: --namespace"
        );
    }

    #[test]
    fn switches_and_their_values() {
        // A value given to a switch is ignored: `-A=false` still means all namespaces.
        let o = parsed("get pods -A=false --show-labels=false --overwrite=0 --all=no");
        assert!(o.all_ns && o.show_labels && o.overwrite && o.all);
        let o =
            parsed("run x -it --rm --command --client --dry-run=client --validate --save-config");
        assert!(o.attach && o.rm && o.command && o.client);
        for line in [
            "run -ti",
            "run -i",
            "run -t",
            "run --stdin",
            "run --tty",
            "run --attach",
        ] {
            assert!(parsed(line).attach, "{line}");
        }
        assert_eq!(parsed("get - pods").words, ["get", "-", "pods"]);
        assert!(parsed("get pods --all-namespaces").all_ns);
    }

    #[test]
    fn unknown_flags_name_the_first_letter_and_the_word() {
        for (line, msg) in [
            ("get pods -x", "error: unknown shorthand flag: 'x' in -x"),
            ("get pods -x=1", "error: unknown shorthand flag: 'x' in -x"),
            (
                "get pods -xyz=abc",
                "error: unknown shorthand flag: 'x' in -xyz=abc",
            ),
            ("get pods -Ai", "error: unknown shorthand flag: 'A' in -Ai"),
            (
                "get pods -it=x",
                "error: unknown shorthand flag: 'i' in -it=x",
            ),
            (
                "apply -fa.yaml",
                "error: unknown shorthand flag: 'f' in -fa.yaml",
            ),
            (
                "get pods -l app=a",
                "error: unknown shorthand flag: 'l' in -l",
            ),
            (
                "get pods -é=1",
                "error: unknown shorthand flag: 'é' in -é=1",
            ),
            ("get pods -h", "error: unknown shorthand flag: 'h' in -h"),
            ("get pods --bogus=1", "error: unknown flag: --bogus"),
            ("get pods --=x", "error: unknown flag: --"),
            ("get pods ---x", "error: unknown flag: ---x"),
        ] {
            assert_eq!(refused(line), msg, "{line}");
        }
    }

    #[test]
    fn usage_errors_name_the_verb() {
        let b = super::super::testkit::Bench::new(|s| s.k8s = true);
        let see = |msg: &str, verb: &str| {
            let see = if verb.is_empty() {
                "See 'kubectl --help' for usage.".to_string()
            } else {
                format!("See 'kubectl {verb} --help' for usage.")
            };
            (1, String::new(), format!("{msg}\n{see}\n"))
        };
        assert_eq!(
            b.run("kubectl --bogus"),
            see("error: unknown flag: --bogus", "")
        );
        assert_eq!(
            b.run("kubectl -n foo --bogus"),
            see("error: unknown flag: --bogus", "foo")
        );
        assert_eq!(
            b.run("kubectl -h get"),
            see("error: unknown shorthand flag: 'h' in -h", "get")
        );
        assert_eq!(b.run("kubectl --help").0, 0);
        assert_eq!(b.run("kubectl get pods --").0, 0);
    }
}
