//! The small Kubernetes cluster: nodes, DaemonSets, pods, a scheduler that runs whenever kubectl
//! does (no background process), and manifest parsing.
//!
//! The local node *is* the simulated machine: the AMD device plugin advertises its GPUs only
//! while amdgpu is loaded there, just as the real plugin finds no /dev/kfd otherwise.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use yaml_rust2::{Yaml, YamlLoader};

/// The device plugin's DaemonSet.
pub const DEVICE_PLUGIN_DS: &str = "amdgpu-device-plugin-daemonset";
/// The node labeller's DaemonSet.
pub const LABELLER_DS: &str = "amdgpu-labeller-daemonset";
/// The resource a pod asks for GPUs by.
pub const GPU_RESOURCE: &str = "amd.com/gpu";

/// The simulated Kubernetes cluster (a single node).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cluster {
    /// Its version.
    pub version: String,
    /// Its nodes.
    pub nodes: Vec<Node>,
    /// Its DaemonSets.
    pub daemonsets: Vec<DaemonSet>,
    /// Its pods.
    pub pods: Vec<Pod>,
    /// The last pod IP handed out (10.244.0.N).
    pub next_ip: u32,
    /// Namespaces made with `kubectl create namespace`, besides the four every cluster has.
    #[serde(default)]
    pub namespaces: Vec<Namespace>,
}

/// The namespaces kubeadm creates.
pub const BUILTIN_NAMESPACES: &[&str] =
    &["default", "kube-node-lease", "kube-public", "kube-system"];

/// A namespace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Namespace {
    /// Its name.
    pub name: String,
    /// When it was made (unix time).
    pub created: i64,
}

/// A node.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Node {
    /// Its name.
    pub name: String,
    /// Its labels.
    pub labels: BTreeMap<String, String>,
    /// When it joined (unix time).
    pub created: i64,
    /// Its internal IP.
    pub internal_ip: String,
    /// Its roles (`control-plane`).
    pub roles: Vec<String>,
    /// Whether this node is the simulated machine itself.
    pub local: bool,
    /// GPUs physically present (non-local nodes are assumed to have a working driver).
    pub gpus: u32,
    /// CPUs.
    pub cpu: u32,
    /// Memory in KiB.
    pub memory_ki: u64,
    /// OS image, as `kubectl get nodes -o wide` shows it.
    pub os_image: String,
    /// Kernel version.
    pub kernel: String,
}

/// A DaemonSet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DaemonSet {
    /// Its namespace.
    pub namespace: String,
    /// Its name.
    pub name: String,
    /// Its container image.
    pub image: String,
    /// When it was made (unix time).
    pub created: i64,
    /// The manifest as applied, to tell `apply` "unchanged" from "configured".
    pub spec: String,
    /// The applied manifest as JSON, for `kubectl patch` (absent on the cluster's own sets).
    #[serde(default)]
    pub manifest: Option<serde_json::Value>,
}

/// A pod's phase.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Not scheduled or not started.
    Pending,
    /// Running.
    Running,
}

impl Phase {
    /// The phase as kubectl prints it.
    pub fn as_str(&self) -> &'static str {
        match self {
            Phase::Pending => "Pending",
            Phase::Running => "Running",
        }
    }
}

/// A container of a pod.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Container {
    /// Its name.
    pub name: String,
    /// Its image.
    pub image: String,
    /// Resource limits.
    pub limits: BTreeMap<String, String>,
    /// Resource requests.
    pub requests: BTreeMap<String, String>,
}

/// A pod.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pod {
    /// Its namespace.
    pub namespace: String,
    /// Its name.
    pub name: String,
    /// Its labels.
    pub labels: BTreeMap<String, String>,
    /// When it was made (unix time).
    pub created: i64,
    /// Its containers.
    pub containers: Vec<Container>,
    /// Labels its node must have.
    pub node_selector: BTreeMap<String, String>,
    /// Its phase.
    pub phase: Phase,
    /// The node it runs on.
    pub node: Option<String>,
    /// Its IP.
    pub ip: Option<String>,
    /// `DaemonSet/NAME` for pods a DaemonSet made.
    pub owner: Option<String>,
    /// The last FailedScheduling message, with when it was first and last seen and how often.
    pub sched_message: Option<String>,
    /// When the scheduling failure was first seen.
    pub sched_first: i64,
    /// When it was last seen.
    pub sched_last: i64,
    /// How often it was seen.
    pub sched_count: u32,
    /// When it started running.
    pub started: Option<i64>,
    /// Its manifest as applied.
    pub spec: String,
}

impl Pod {
    /// GPUs the pod asks for (limits, else requests; extended resources need limits == requests).
    pub fn gpu_request(&self) -> u32 {
        self.containers
            .iter()
            .map(|c| {
                c.limits
                    .get(GPU_RESOURCE)
                    .or_else(|| c.requests.get(GPU_RESOURCE))
                    .and_then(|v| v.parse::<u32>().ok())
                    .unwrap_or(0)
            })
            .sum()
    }
}

impl Cluster {
    /// Whether namespace `name` exists.
    pub fn has_namespace(&self, name: &str) -> bool {
        BUILTIN_NAMESPACES.contains(&name) || self.namespaces.iter().any(|n| n.name == name)
    }

    /// Every namespace with when it was made (the built-in ones with the cluster's first node).
    pub fn namespace_list(&self, cluster_created: i64) -> Vec<Namespace> {
        let mut v: Vec<Namespace> = BUILTIN_NAMESPACES
            .iter()
            .map(|n| Namespace {
                name: n.to_string(),
                created: cluster_created,
            })
            .chain(self.namespaces.iter().cloned())
            .collect();
        v.sort_by(|a, b| a.name.cmp(&b.name));
        v
    }

    /// Whether DaemonSet `name` exists in `ns`.
    pub fn has_daemonset(&self, ns: &str, name: &str) -> bool {
        self.daemonsets
            .iter()
            .any(|d| d.namespace == ns && d.name == name)
    }

    fn plugin_running(&self) -> bool {
        self.daemonsets.iter().any(is_device_plugin)
    }

    fn labeller_running(&self) -> bool {
        self.daemonsets.iter().any(|d| d.image.contains("labeller"))
    }

    /// `amd.com/gpu` capacity a node advertises, `None` when the plugin does not advertise it.
    pub fn gpu_capacity(&self, node: &Node, driver_loaded: bool) -> Option<u32> {
        if !self.plugin_running() || node.gpus == 0 || (node.local && !driver_loaded) {
            return None;
        }
        Some(node.gpus)
    }

    fn gpus_in_use(&self, node: &str) -> u32 {
        self.pods
            .iter()
            .filter(|p| p.phase == Phase::Running && p.node.as_deref() == Some(node))
            .map(Pod::gpu_request)
            .sum()
    }

    /// kube-system as kubeadm leaves it on a control-plane node: the static pods of the control
    /// plane, kube-proxy's DaemonSet and two CoreDNS replicas. Added once, to clusters without.
    fn ensure_system_pods(&mut self) {
        let Some(node) = self.nodes.iter().find(|n| n.local).cloned() else {
            return;
        };
        if self.pods.iter().any(|p| {
            p.namespace == "kube-system"
                && p.owner.as_deref() == Some(&format!("Node/{}", node.name))
        }) {
            return;
        }
        let v = self.version.clone();
        let created = node.created;
        if !self.has_daemonset("kube-system", "kube-proxy") {
            self.daemonsets.push(DaemonSet {
                namespace: "kube-system".into(),
                name: "kube-proxy".into(),
                image: format!("registry.k8s.io/kube-proxy:{v}"),
                created,
                spec: String::new(),
                manifest: None,
            });
        }
        let add = |c: &mut Cluster, name: String, image: String, owner: String, ip: String| {
            c.pods.push(Pod {
                namespace: "kube-system".into(),
                name,
                labels: BTreeMap::new(),
                created,
                containers: vec![Container {
                    name: "main".into(),
                    image,
                    limits: BTreeMap::new(),
                    requests: BTreeMap::new(),
                }],
                node_selector: BTreeMap::new(),
                phase: Phase::Running,
                node: Some(node.name.clone()),
                ip: Some(ip),
                owner: Some(owner),
                sched_message: None,
                sched_first: created,
                sched_last: created,
                sched_count: 0,
                started: Some(created),
                spec: String::new(),
            });
        };
        for i in 0..2 {
            let ip = self.take_ip();
            let name = format!("coredns-7db6d8ff4d-{}", suffix(&format!("coredns{i}")));
            add(
                self,
                name,
                "registry.k8s.io/coredns/coredns:v1.11.1".into(),
                "ReplicaSet/coredns-7db6d8ff4d".into(),
                ip,
            );
        }
        for (part, image) in [
            ("etcd", "registry.k8s.io/etcd:3.5.12-0".to_string()),
            (
                "kube-apiserver",
                format!("registry.k8s.io/kube-apiserver:{v}"),
            ),
            (
                "kube-controller-manager",
                format!("registry.k8s.io/kube-controller-manager:{v}"),
            ),
            (
                "kube-scheduler",
                format!("registry.k8s.io/kube-scheduler:{v}"),
            ),
        ] {
            add(
                self,
                format!("{part}-{}", node.name),
                image,
                format!("Node/{}", node.name),
                node.internal_ip.clone(),
            );
        }
    }

    /// Brings the cluster up to date: DaemonSet pods, labeller labels, pending pods scheduled.
    pub fn reconcile(&mut self, now: i64, driver_loaded: bool, gpu_labels: &[(String, String)]) {
        self.ensure_system_pods();
        // DaemonSet pods: one per node, named after the set.
        let mut wanted = Vec::new();
        for ds in &self.daemonsets {
            for n in &self.nodes {
                wanted.push((ds.clone(), n.name.clone()));
            }
        }
        self.pods.retain(|p| match &p.owner {
            // Static pods and ReplicaSet pods are not the DaemonSets' to remove.
            Some(o) if !o.starts_with("DaemonSet/") => true,
            Some(o) => wanted.iter().any(|(ds, node)| {
                o == &format!("DaemonSet/{}", ds.name) && p.node.as_ref() == Some(node)
            }),
            None => true,
        });
        for (ds, node) in wanted {
            let owner = format!("DaemonSet/{}", ds.name);
            if self
                .pods
                .iter()
                .any(|p| p.owner.as_ref() == Some(&owner) && p.node.as_ref() == Some(&node))
            {
                continue;
            }
            let ip = self.take_ip();
            self.pods.push(Pod {
                namespace: ds.namespace.clone(),
                name: format!("{}-{}", ds.name, suffix(&format!("{}{}", ds.name, node))),
                labels: BTreeMap::new(),
                created: ds.created.min(now),
                containers: vec![Container {
                    name: "main".into(),
                    image: ds.image.clone(),
                    limits: BTreeMap::new(),
                    requests: BTreeMap::new(),
                }],
                node_selector: BTreeMap::new(),
                phase: Phase::Running,
                node: Some(node),
                ip: Some(ip),
                owner: Some(owner),
                sched_message: None,
                sched_first: ds.created.min(now),
                sched_last: ds.created.min(now),
                sched_count: 0,
                started: Some(ds.created.min(now)),
                spec: String::new(),
            });
        }
        // The node labeller labels GPU nodes.
        if self.labeller_running() {
            for n in &mut self.nodes {
                if n.gpus > 0 && (!n.local || driver_loaded) {
                    for (k, v) in gpu_labels {
                        n.labels.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        // Schedule pending pods in creation order.
        let pending: Vec<usize> = (0..self.pods.len())
            .filter(|&i| self.pods[i].phase == Phase::Pending)
            .collect();
        for i in pending {
            match self.place(&self.pods[i], driver_loaded) {
                Ok(node) => {
                    let ip = self.take_ip();
                    let p = &mut self.pods[i];
                    p.phase = Phase::Running;
                    p.node = Some(node);
                    p.ip = Some(ip);
                    p.started = Some(now);
                }
                Err(msg) => {
                    let p = &mut self.pods[i];
                    if p.sched_message.as_deref() != Some(msg.as_str()) {
                        p.sched_first = now;
                        p.sched_count = 0;
                    }
                    p.sched_message = Some(msg);
                    p.sched_last = now;
                    p.sched_count += 1;
                }
            }
        }
    }

    fn take_ip(&mut self) -> String {
        self.next_ip += 1;
        format!("10.244.0.{}", self.next_ip)
    }

    /// Finds a node for the pod, or the scheduler's FailedScheduling message.
    fn place(&self, pod: &Pod, driver_loaded: bool) -> Result<String, String> {
        let want = pod.gpu_request();
        let mut fails: BTreeMap<&str, u32> = BTreeMap::new();
        let mut preempt: BTreeMap<&str, u32> = BTreeMap::new();
        for n in &self.nodes {
            let selector_ok = pod
                .node_selector
                .iter()
                .all(|(k, v)| n.labels.get(k) == Some(v));
            if !selector_ok {
                *fails
                    .entry("node(s) didn't match Node's node affinity/selector")
                    .or_default() += 1;
                *preempt
                    .entry("Preemption is not helpful for scheduling")
                    .or_default() += 1;
                continue;
            }
            if want > 0 {
                let cap = self.gpu_capacity(n, driver_loaded).unwrap_or(0);
                if cap < want + self.gpus_in_use(&n.name) {
                    *fails.entry("Insufficient amd.com/gpu").or_default() += 1;
                    *preempt
                        .entry("No preemption victims found for incoming pod")
                        .or_default() += 1;
                    continue;
                }
            }
            return Ok(n.name.clone());
        }
        let total = self.nodes.len();
        let list = |m: &BTreeMap<&str, u32>| {
            let mut v: Vec<String> = m.iter().map(|(r, c)| format!("{c} {r}")).collect();
            v.sort();
            v.join(", ")
        };
        if total == 0 {
            return Err("no nodes available to schedule pods".into());
        }
        Err(format!(
            "0/{total} nodes are available: {}. preemption: 0/{total} nodes are available: {}.",
            list(&fails),
            list(&preempt)
        ))
    }
}

/// Whether a DaemonSet runs AMD's device plugin: the image `rocm/k8s-device-plugin` (on Docker
/// Hub, however the registry is spelled), any tag but the node labeller's. NVIDIA's plugin has
/// the same name under another owner and advertises no amd.com/gpu.
pub fn is_device_plugin(d: &DaemonSet) -> bool {
    is_amd_device_plugin_image(&d.image)
}

/// Whether `image` is AMD's device plugin.
pub fn is_amd_device_plugin_image(image: &str) -> bool {
    let (repo, tag) = match image.split_once('@') {
        Some((r, _digest)) => (r, ""),
        None => match image.rsplit_once(':') {
            // A colon after the last slash separates the tag; before it, a registry port.
            Some((r, t)) if !t.contains('/') => (r, t),
            _ => (image, ""),
        },
    };
    let repo = repo
        .strip_prefix("docker.io/")
        .or_else(|| repo.strip_prefix("index.docker.io/"))
        .or_else(|| repo.strip_prefix("registry-1.docker.io/"))
        .unwrap_or(repo);
    repo == "rocm/k8s-device-plugin" && !tag.starts_with("labeller")
}

#[cfg(test)]
mod image_tests {
    use super::is_amd_device_plugin_image as amd;

    #[test]
    fn only_amds_device_plugin_image_counts() {
        assert!(amd("rocm/k8s-device-plugin"));
        assert!(amd("rocm/k8s-device-plugin:1.31.0.6"));
        assert!(amd("docker.io/rocm/k8s-device-plugin:latest"));
        assert!(!amd("rocm/k8s-device-plugin:labeller-latest"));
        assert!(!amd("nvcr.io/nvidia/k8s-device-plugin:v0.14.1"));
        assert!(!amd("nvidia/k8s-device-plugin:1.0.0-beta4"));
        assert!(!amd("example.com:5000/k8s-device-plugin"));
    }
}

/// A stable five-character pod-name suffix, like the random one Kubernetes generates.
pub fn suffix(seed: &str) -> String {
    const ALPHA: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    let mut h: u64 = 1469598103934665603;
    for b in seed.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(1099511628211);
    }
    (0..5)
        .map(|i| ALPHA[((h >> (i * 8)) % ALPHA.len() as u64) as usize] as char)
        .collect()
}

/// kubectl's HumanDuration (the AGE column).
pub fn human_age(secs: i64) -> String {
    if secs < -1 {
        return "<invalid>".into();
    }
    let s = secs.max(0);
    if s < 120 {
        return format!("{s}s");
    }
    let m = s / 60;
    if m < 10 {
        return if s % 60 == 0 {
            format!("{m}m")
        } else {
            format!("{m}m{}s", s % 60)
        };
    }
    if m < 180 {
        return format!("{m}m");
    }
    let h = m / 60;
    if h < 8 {
        return if m % 60 == 0 {
            format!("{h}h")
        } else {
            format!("{h}h{}m", m % 60)
        };
    }
    if h < 48 {
        return format!("{h}h");
    }
    if h < 24 * 8 {
        return if h % 24 == 0 {
            format!("{}d", h / 24)
        } else {
            format!("{}d{}h", h / 24, h % 24)
        };
    }
    if h < 24 * 365 * 2 {
        return format!("{}d", h / 24);
    }
    format!("{}y", h / 24 / 365)
}

/// One object of a manifest file.
#[derive(Debug, Clone, PartialEq)]
pub enum Object {
    /// A pod.
    Pod(Pod),
    /// A DaemonSet.
    DaemonSet(DaemonSet),
    /// A namespace, by name.
    Namespace(String),
    /// A kind the simulated API server does not know.
    Unknown {
        /// Its kind.
        kind: String,
        /// Its apiVersion.
        api_version: String,
        /// Its name.
        name: String,
    },
}

impl Object {
    /// The kind's plural as kubectl prints it (`pods`).
    pub fn kind_plural(&self) -> &str {
        match self {
            Object::Pod(_) => "pods",
            Object::DaemonSet(_) => "daemonsets.apps",
            Object::Namespace(_) => "namespaces",
            Object::Unknown { .. } => "",
        }
    }

    /// The object's name.
    pub fn name(&self) -> &str {
        match self {
            Object::Pod(p) => &p.name,
            Object::DaemonSet(d) => &d.name,
            Object::Namespace(n) => n,
            Object::Unknown { name, .. } => name,
        }
    }

    /// `pod/NAME`, `daemonset.apps/NAME`: how kubectl names it in "created".
    pub fn ref_name(&self) -> String {
        match self {
            Object::Pod(p) => format!("pod/{}", p.name),
            Object::DaemonSet(d) => format!("daemonset.apps/{}", d.name),
            Object::Namespace(n) => format!("namespace/{n}"),
            Object::Unknown { kind, name, .. } => format!("{}/{name}", kind.to_lowercase()),
        }
    }
}

/// Why a manifest was refused, already in kubectl's words (without the leading `error: `
/// context, which depends on the verb and file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ManifestError {
    /// YAML that does not parse.
    Syntax(String),
    /// The API server rejected the object (`Error from server (BadRequest)` style).
    Invalid(String),
    /// Missing kind/apiVersion.
    Incomplete(String),
}

/// Parses every document of a manifest (empty documents are skipped).
pub fn parse_manifests(text: &str, now: i64) -> Result<Vec<Object>, ManifestError> {
    let docs = YamlLoader::load_from_str(text).map_err(|e| {
        ManifestError::Syntax(format!(
            "error converting YAML to JSON: yaml: line {}: {}",
            e.marker().line(),
            e.info()
        ))
    })?;
    let mut out = Vec::new();
    for d in docs {
        if d.is_null() || d.is_badvalue() {
            continue;
        }
        if d.as_hash().is_none() {
            return Err(ManifestError::Syntax(
                "error converting YAML to JSON: yaml: the document is not a mapping".into(),
            ));
        }
        out.push(object(&d, text, now)?);
    }
    Ok(out)
}

fn s(y: &Yaml) -> Option<String> {
    match y {
        Yaml::String(s) => Some(s.clone()),
        Yaml::Integer(i) => Some(i.to_string()),
        Yaml::Real(r) => Some(r.clone()),
        Yaml::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

fn string_map(y: &Yaml) -> BTreeMap<String, String> {
    y.as_hash()
        .map(|h| h.iter().filter_map(|(k, v)| Some((s(k)?, s(v)?))).collect())
        .unwrap_or_default()
}

fn object(d: &Yaml, text: &str, now: i64) -> Result<Object, ManifestError> {
    let kind = s(&d["kind"]).unwrap_or_default();
    let api_version = s(&d["apiVersion"]).unwrap_or_default();
    if kind.is_empty() || api_version.is_empty() {
        let what = match (api_version.is_empty(), kind.is_empty()) {
            (true, true) => "[apiVersion not set, kind not set]",
            (true, false) => "apiVersion not set",
            _ => "kind not set",
        };
        return Err(ManifestError::Incomplete(format!(
            "error validating data: {what}; if you choose to ignore these errors, turn validation off with --validate=false"
        )));
    }
    let name = s(&d["metadata"]["name"]).unwrap_or_default();
    let namespace = s(&d["metadata"]["namespace"]).unwrap_or_else(|| "default".into());
    match (kind.as_str(), api_version.as_str()) {
        ("Pod", "v1") => pod(d, text, now, namespace, name).map(Object::Pod),
        ("DaemonSet", "apps/v1") => {
            if name.is_empty() {
                return Err(no_name("DaemonSet.apps"));
            }
            let image =
                s(&d["spec"]["template"]["spec"]["containers"][0]["image"]).unwrap_or_default();
            Ok(Object::DaemonSet(DaemonSet {
                namespace,
                name,
                image,
                created: now,
                spec: doc_fingerprint(d, text),
                manifest: Some(super::k8s_patch::yaml_to_json(d)),
            }))
        }
        ("Namespace", "v1") if name.is_empty() => Err(no_name("Namespace")),
        ("Namespace", "v1") => Ok(Object::Namespace(name)),
        _ => Ok(Object::Unknown {
            kind,
            api_version,
            name,
        }),
    }
}

/// The API server's answer to an object without a name.
fn no_name(kind: &str) -> ManifestError {
    ManifestError::Invalid(format!(
        "{kind} \"\" is invalid: metadata.name: Required value: name or generateName is required"
    ))
}

/// A Pod manifest, checked as the API server checks it.
fn pod(
    d: &Yaml,
    text: &str,
    now: i64,
    namespace: String,
    name: String,
) -> Result<Pod, ManifestError> {
    if name.is_empty() {
        return Err(no_name("Pod"));
    }
    let spec = &d["spec"];
    node_selector_strings(spec)?;
    let containers = containers(spec, &name)?;
    Ok(Pod {
        namespace,
        name,
        labels: string_map(&d["metadata"]["labels"]),
        created: now,
        containers,
        node_selector: string_map(&spec["nodeSelector"]),
        phase: Phase::Pending,
        node: None,
        ip: None,
        owner: None,
        sched_message: None,
        sched_first: now,
        sched_last: now,
        sched_count: 0,
        started: None,
        spec: doc_fingerprint(d, text),
    })
}

/// nodeSelector values must be strings: an unquoted `true` is a boolean.
fn node_selector_strings(spec: &Yaml) -> Result<(), ManifestError> {
    let Some(h) = spec["nodeSelector"].as_hash() else {
        return Ok(());
    };
    for v in h.values() {
        let t = match v {
            Yaml::Boolean(_) => "bool",
            Yaml::Integer(_) | Yaml::Real(_) => "number",
            _ => continue,
        };
        return Err(ManifestError::Invalid(format!(
            "Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal {t} into Go struct field PodSpec.spec.nodeSelector of type string"
        )));
    }
    Ok(())
}

/// A pod's containers: at least one, each named, with an image and a whole number of GPUs.
fn containers(spec: &Yaml, pod: &str) -> Result<Vec<Container>, ManifestError> {
    let mut out = Vec::new();
    for c in spec["containers"]
        .as_vec()
        .map(|v| v.as_slice())
        .unwrap_or(&[])
    {
        out.push(container(c, pod, out.len())?);
    }
    if out.is_empty() {
        return Err(ManifestError::Invalid(format!(
            "Pod \"{pod}\" is invalid: spec.containers: Required value"
        )));
    }
    Ok(out)
}

/// Container `i` of a pod; requests default to the limits, as the API server fills them in.
fn container(c: &Yaml, pod: &str, i: usize) -> Result<Container, ManifestError> {
    let name = s(&c["name"]).unwrap_or_default();
    let image = s(&c["image"]).unwrap_or_default();
    let limits = string_map(&c["resources"]["limits"]);
    let mut requests = string_map(&c["resources"]["requests"]);
    for (k, v) in &limits {
        requests.entry(k.clone()).or_insert_with(|| v.clone());
    }
    for (field, value) in [("name", &name), ("image", &image)] {
        if value.is_empty() {
            return Err(ManifestError::Invalid(format!(
                "Pod \"{pod}\" is invalid: spec.containers[{i}].{field}: Required value"
            )));
        }
    }
    if let Some(v) = limits.get(GPU_RESOURCE).or(requests.get(GPU_RESOURCE))
        && v.parse::<u32>().is_err()
    {
        return Err(ManifestError::Invalid(format!(
            "Pod \"{pod}\" is invalid: spec.containers[{i}].resources.requests[amd.com/gpu]: Invalid value: \"{v}\": must be an integer"
        )));
    }
    Ok(Container {
        name,
        image,
        limits,
        requests,
    })
}

/// A node as the API server returns it, as far as a patch may change it.
pub fn node_json(n: &Node) -> serde_json::Value {
    serde_json::json!({
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": n.name, "labels": n.labels},
        "spec": {},
    })
}

/// A pod as the API server returns it, as far as the simulator keeps it.
pub fn pod_json(p: &Pod) -> serde_json::Value {
    let containers: Vec<serde_json::Value> = p
        .containers
        .iter()
        .map(|c| {
            let mut v = serde_json::json!({"name": c.name, "image": c.image});
            if !c.limits.is_empty() || !c.requests.is_empty() {
                v["resources"] = serde_json::json!({"limits": c.limits, "requests": c.requests});
            }
            v
        })
        .collect();
    let mut spec = serde_json::json!({"containers": containers});
    if !p.node_selector.is_empty() {
        spec["nodeSelector"] = serde_json::json!(p.node_selector);
    }
    serde_json::json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": p.name, "namespace": p.namespace, "labels": p.labels},
        "spec": spec,
    })
}

/// A DaemonSet's manifest as JSON: the one applied, or the outline of a set the cluster made.
pub fn daemonset_json(d: &DaemonSet) -> serde_json::Value {
    d.manifest.clone().unwrap_or_else(|| {
        serde_json::json!({
            "apiVersion": "apps/v1",
            "kind": "DaemonSet",
            "metadata": {"name": d.name, "namespace": d.namespace},
            "spec": {"template": {"spec": {"containers": [{"name": d.name, "image": d.image}]}}},
        })
    })
}

/// A stable description of a document, to compare re-applied manifests.
fn doc_fingerprint(d: &Yaml, _text: &str) -> String {
    format!("{d:?}")
}

/// The device plugin manifest served at its URL (the real file's shape: a DaemonSet in
/// kube-system running rocm/k8s-device-plugin with the kubelet's device-plugins directory).
pub fn device_plugin_manifest() -> &'static str {
    "apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: amdgpu-device-plugin-daemonset
  namespace: kube-system
spec:
  selector:
    matchLabels:
      name: amdgpu-dp-ds
  template:
    metadata:
      labels:
        name: amdgpu-dp-ds
    spec:
      priorityClassName: system-node-critical
      tolerations:
      - key: CriticalAddonsOnly
        operator: Exists
      containers:
      - image: rocm/k8s-device-plugin
        name: amdgpu-dp-cntr
        securityContext:
          allowPrivilegeEscalation: false
          capabilities:
            drop: [\"ALL\"]
        volumeMounts:
          - name: dp
            mountPath: /var/lib/kubelet/device-plugins
          - name: sys
            mountPath: /sys
      volumes:
        - name: dp
          hostPath:
            path: /var/lib/kubelet/device-plugins
        - name: sys
          hostPath:
            path: /sys
"
}

/// The node labeller manifest served at its URL.
pub fn labeller_manifest() -> &'static str {
    "apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: amdgpu-labeller-daemonset
  namespace: kube-system
spec:
  selector:
    matchLabels:
      name: amdgpu-labeller-ds
  template:
    metadata:
      labels:
        name: amdgpu-labeller-ds
    spec:
      serviceAccountName: amdgpu-device-plugin
      priorityClassName: system-node-critical
      containers:
      - image: rocm/k8s-device-plugin:labeller-latest
        name: amdgpu-labeller-cntr
        command: [\"/root/k8s-node-labeller\"]
        args: [\"-vram\", \"-cu-count\", \"-simd-count\", \"-device-id\", \"-family\", \"-product-name\", \"-driver-version\"]
        volumeMounts:
          - name: sys
            mountPath: /sys
      volumes:
        - name: sys
          hostPath:
            path: /sys
"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_read_like_kubectl() {
        assert_eq!(human_age(5), "5s");
        assert_eq!(human_age(125), "2m5s");
        assert_eq!(human_age(600), "10m");
        assert_eq!(human_age(3 * 3600 + 60), "3h1m");
        assert_eq!(human_age(10 * 86400), "10d");
    }

    #[test]
    fn unquoted_true_in_node_selector_is_refused() {
        let m = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: i\n  nodeSelector:\n    gpu: true\n";
        assert!(matches!(
            parse_manifests(m, 0),
            Err(ManifestError::Invalid(_))
        ));
    }

    #[test]
    fn bad_yaml_is_a_syntax_error() {
        assert!(matches!(
            parse_manifests("a: b: c\n", 0),
            Err(ManifestError::Syntax(_))
        ));
    }
}
