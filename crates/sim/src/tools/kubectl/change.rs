//! The verbs that change the cluster besides create/apply/delete/label: `create namespace`,
//! `patch` (strategic merge, merge and JSON patches), `run` with `--overrides`, and `logs`.
//! Each turns the object into JSON, changes it, and reads it back through the same manifest
//! parser `create` uses, so the API server's validation messages stay the same.

use serde_json::Value;

use super::super::super::Ctx;
use super::super::super::k8s::{self, Cluster, ManifestError, Namespace, Object, Pod};
use super::super::super::k8s_patch::{self, PatchType};
use super::{Kind, Opts, kind, ns, plural};

/// kubectl's usage error: the message, then where to read more.
fn usage(cx: &mut Ctx, msg: &str, cmd: &str) -> i32 {
    cx.eprintln(&format!("error: {msg}"));
    cx.eprintln(&format!("See 'kubectl {cmd} -h' for help and examples"));
    1
}

/// Whether `name` is an RFC 1123 label: what the API server requires of namespace names.
fn rfc1123_label(name: &str) -> bool {
    let ok_char = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-';
    !name.is_empty()
        && name.len() <= 63
        && name.chars().all(ok_char)
        && !name.starts_with('-')
        && !name.ends_with('-')
}

/// A Namespace object of a manifest: created, or left as it is by `apply`.
pub(super) fn create_namespace_from(
    cx: &mut Ctx,
    c: &mut Cluster,
    file: &str,
    name: &str,
    apply: bool,
) -> i32 {
    if !c.has_namespace(name) {
        return create_namespace(cx, c, &[name.to_string()]);
    }
    if apply {
        cx.println(&format!("namespace/{name} unchanged"));
        return 0;
    }
    cx.eprintln(&format!("Error from server (AlreadyExists): error when creating \"{file}\": namespaces \"{name}\" already exists"));
    1
}

pub(super) fn create_namespace(cx: &mut Ctx, c: &mut Cluster, names: &[String]) -> i32 {
    let [name] = names else {
        let msg = format!("exactly one NAME is required, got {}", names.len());
        return usage(cx, &msg, "create namespace");
    };
    if !rfc1123_label(name) {
        cx.eprintln(&format!("The Namespace \"{name}\" is invalid: metadata.name: Invalid value: \"{name}\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"));
        return 1;
    }
    if c.has_namespace(name) {
        cx.eprintln(&format!(
            "Error from server (AlreadyExists): namespaces \"{name}\" already exists"
        ));
        return 1;
    }
    c.namespaces.push(Namespace {
        name: name.clone(),
        created: cx.state.now(),
    });
    cx.println(&format!("namespace/{name} created"));
    0
}

/// `kubectl delete namespace NAME...`: a namespace made here goes with its pods; the four
/// built-in ones are refused by the API server's NamespaceLifecycle admission.
pub(super) fn delete_namespaces(cx: &mut Ctx, c: &mut Cluster, names: &[String]) -> i32 {
    let mut code = 0;
    for name in names {
        if k8s::BUILTIN_NAMESPACES.contains(&name.as_str()) {
            cx.eprintln(&format!("Error from server (Forbidden): namespaces \"{name}\" is forbidden: this namespace may not be deleted"));
            code = 1;
        } else if let Some(i) = c.namespaces.iter().position(|n| &n.name == name) {
            c.namespaces.remove(i);
            c.pods.retain(|p| &p.namespace != name);
            c.daemonsets.retain(|d| &d.namespace != name);
            cx.println(&format!("namespace \"{name}\" deleted"));
        } else {
            cx.eprintln(&format!(
                "Error from server (NotFound): namespaces \"{name}\" not found"
            ));
            code = 1;
        }
    }
    code
}

/// `TYPE NAME` or `TYPE/NAME`: the one object a patch names, or the resource builder's error.
fn one_target(words: &[String]) -> Result<(Kind, String), String> {
    let (res, name) = match words {
        [] => {
            return Err("error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'".into());
        }
        [t] => match t.split_once('/') {
            Some((r, n)) => (r.to_string(), n.to_string()),
            None => (t.clone(), String::new()),
        },
        [r, n, ..] => (r.clone(), n.clone()),
    };
    let k = kind(&res)
        .ok_or_else(|| format!("error: the server doesn't have a resource type \"{res}\""))?;
    if name.is_empty() {
        return Err("error: resource(s) were provided, but no name was specified".into());
    }
    Ok((k, name))
}

/// The patch type of `--type`, or kubectl's usage error.
fn patch_type(cx: &mut Ctx, o: &Opts) -> Result<PatchType, i32> {
    let Some(t) = &o.patch_type else {
        return Ok(PatchType::Strategic);
    };
    PatchType::from_flag(t).ok_or_else(|| {
        let msg = format!("--type must be one of [json merge strategic], not \"{t}\"");
        usage(cx, &msg, "patch")
    })
}

/// The patch of `-p`, or the contents of `--patch-file`.
fn patch_text(cx: &Ctx, o: &Opts) -> Result<Option<String>, String> {
    if o.patch_file.is_some() && o.patch.is_some() {
        return Err("error: cannot specify --patch and --patch-file together".into());
    }
    if let Some(f) = &o.patch_file {
        return std::fs::read_to_string(cx.host(f)).map(Some).map_err(|e| {
            format!(
                "error: unable to read patch file: open {f}: {}",
                os_error(&e)
            )
        });
    }
    Ok(o.patch.clone().filter(|p| !p.is_empty()))
}

/// Go's wording of the usual file errors.
fn os_error(e: &std::io::Error) -> &'static str {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory",
        std::io::ErrorKind::PermissionDenied => "permission denied",
        _ => "input/output error",
    }
}

pub(super) fn patch(cx: &mut Ctx, c: &mut Cluster, o: &Opts, words: &[String]) -> i32 {
    let how = match patch_type(cx, o) {
        Ok(h) => h,
        Err(code) => return code,
    };
    let text = match patch_text(cx, o) {
        Ok(Some(t)) => t,
        Ok(None) => return usage(cx, "must specify -p to patch", "patch"),
        Err(e) => {
            cx.eprintln(&e);
            return 1;
        }
    };
    let (k, name) = match one_target(words) {
        Ok(t) => t,
        Err(e) => {
            cx.eprintln(&e);
            return 1;
        }
    };
    let body = match k8s_patch::parse(&text) {
        Ok(b) => b,
        Err(e) => {
            cx.eprintln(&format!("error: unable to parse \"{text}\": {e}"));
            return 1;
        }
    };
    let namespace = ns(o);
    let r = Request {
        namespace: &namespace,
        name: &name,
        body: &body,
        how,
        now: cx.state.now(),
    };
    let outcome = match k {
        Kind::Node => patch_node(c, &r),
        Kind::Pod => patch_pod(c, &r),
        Kind::DaemonSet => patch_daemonset(c, &r),
        Kind::Namespace => Err(format!(
            "error: patching {} is not available on the simulated cluster",
            plural(k)
        )),
    };
    let prefix = match k {
        Kind::DaemonSet => "daemonset.apps",
        Kind::Node => "node",
        Kind::Pod => "pod",
        Kind::Namespace => "namespace",
    };
    match outcome {
        Ok(true) => cx.println(&format!("{prefix}/{name} patched")),
        Ok(false) => cx.println(&format!("{prefix}/{name} patched (no change)")),
        Err(e) => {
            cx.eprintln(&e);
            return 1;
        }
    }
    0
}

/// The patched object, or the API server's refusal.
fn patched(before: &Value, body: &Value, how: PatchType, name: &str) -> Result<Value, String> {
    let after = k8s_patch::apply(before, body, how).map_err(|_| {
        "The request is invalid: the server rejected our request due to an error in our request"
            .to_string()
    })?;
    let new_name = after["metadata"]["name"].as_str().unwrap_or("");
    if new_name != name {
        return Err(format!(
            "Error from server (BadRequest): the name of the object ({new_name}) does not match the name on the URL ({name})"
        ));
    }
    Ok(after)
}

/// Labels as the API server decodes them: strings only.
fn string_labels(v: &Value) -> Result<std::collections::BTreeMap<String, String>, String> {
    let Some(m) = v.as_object() else {
        return Ok(Default::default());
    };
    m.iter()
        .map(|(k, v)| match v {
            Value::String(s) => Ok((k.clone(), s.clone())),
            other => Err(format!(
                "Error from server (BadRequest): json: cannot unmarshal {} into Go struct field ObjectMeta.metadata.labels of type string",
                json_type(other)
            )),
        })
        .collect()
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
        _ => "string",
    }
}

fn patch_node(c: &mut Cluster, r: &Request) -> Result<bool, String> {
    let Some(n) = c.nodes.iter_mut().find(|n| n.name == r.name) else {
        return Err(not_found("nodes", r.name));
    };
    let before = k8s::node_json(n);
    let after = patched(&before, r.body, r.how, r.name)?;
    n.labels = string_labels(&after["metadata"]["labels"])?;
    Ok(after != before)
}

/// A manifest's one object, read back through the parser `create` uses.
fn reparse(v: &Value, now: i64) -> Result<Object, String> {
    let text = serde_json::to_string(v).unwrap_or_default();
    match k8s::parse_manifests(&text, now) {
        Ok(mut objs) if objs.len() == 1 => Ok(objs.remove(0)),
        Ok(_) => Err("error: no objects passed to patch".into()),
        Err(ManifestError::Invalid(m)) if m.contains("cannot be handled") => {
            Err(format!("Error from server (BadRequest): {m}"))
        }
        // Without a file to name, kubectl prints the API server's status message as it is.
        Err(ManifestError::Invalid(m)) => Err(format!("The {m}")),
        Err(ManifestError::Syntax(m) | ManifestError::Incomplete(m)) => Err(format!("error: {m}")),
    }
}

/// What a patch call names and carries.
struct Request<'a> {
    namespace: &'a str,
    name: &'a str,
    body: &'a Value,
    how: PatchType,
    now: i64,
}

fn not_found(plural: &str, name: &str) -> String {
    format!("Error from server (NotFound): {plural} \"{name}\" not found")
}

/// The object after the patch, read back through the manifest parser; `None` when the patch
/// changes nothing.
fn patched_object(before: &Value, r: &Request) -> Result<Option<(Value, Object)>, String> {
    let after = patched(before, r.body, r.how, r.name)?;
    if &after == before {
        return Ok(None);
    }
    let obj = reparse(&after, r.now)?;
    Ok(Some((after, obj)))
}

fn patch_pod(c: &mut Cluster, r: &Request) -> Result<bool, String> {
    let Some(p) = c
        .pods
        .iter_mut()
        .find(|p| p.name == r.name && p.namespace == r.namespace)
    else {
        return Err(not_found("pods", r.name));
    };
    let Some((after, Object::Pod(new))) = patched_object(&k8s::pod_json(p), r)? else {
        return Ok(false);
    };
    let labels = string_labels(&after["metadata"]["labels"])?;
    if !only_images_differ(p, &new) {
        return Err(forbidden_pod_update(r.name));
    }
    for (old, fresh) in p.containers.iter_mut().zip(&new.containers) {
        old.image = fresh.image.clone();
    }
    p.labels = labels;
    Ok(true)
}

/// A running pod's spec may change only in its containers' images.
fn only_images_differ(old: &Pod, new: &Pod) -> bool {
    old.node_selector == new.node_selector
        && old.containers.len() == new.containers.len()
        && old
            .containers
            .iter()
            .zip(&new.containers)
            .all(|(a, b)| a.name == b.name && a.limits == b.limits && a.requests == b.requests)
}

/// The API server's answer to a pod update that touches more than images.
pub(super) fn forbidden_pod_update(name: &str) -> String {
    format!(
        "The Pod \"{name}\" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)"
    )
}

fn patch_daemonset(c: &mut Cluster, r: &Request) -> Result<bool, String> {
    let Some(d) = c
        .daemonsets
        .iter_mut()
        .find(|d| d.name == r.name && d.namespace == r.namespace)
    else {
        return Err(not_found("daemonsets.apps", r.name));
    };
    let Some((_, Object::DaemonSet(new))) = patched_object(&k8s::daemonset_json(d), r)? else {
        return Ok(false);
    };
    d.image = new.image;
    d.spec = new.spec;
    d.manifest = new.manifest;
    Ok(true)
}

/// The restart policy of `--restart`, or kubectl's error.
fn restart_policy(o: &Opts) -> Result<String, String> {
    match o.restart.as_deref() {
        None | Some("") => Ok("Always".into()),
        Some(r @ ("Always" | "OnFailure" | "Never")) => Ok(r.into()),
        Some(r) => Err(format!(
            "error: invalid restart policy: {r}, valid values are: Always, OnFailure, Never"
        )),
    }
}

/// The pod `kubectl run NAME --image=IMAGE` generates, before any `--overrides`.
fn generated_pod(name: &str, o: &Opts, image: &str, restart: &str) -> Value {
    let mut container = serde_json::json!({"name": name, "image": image});
    if !o.after_dash.is_empty() {
        let field = if o.command { "command" } else { "args" };
        container[field] = serde_json::json!(o.after_dash);
    }
    serde_json::json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "labels": {"run": name}},
        "spec": {
            "containers": [container],
            "dnsPolicy": "ClusterFirst",
            "restartPolicy": restart,
        },
    })
}

/// `--overrides` applied to the generated pod the way `--override-type` says (merge unless
/// told otherwise, as kubectl does).
fn overridden(pod: Value, o: &Opts) -> Result<Value, String> {
    let Some(text) = o.overrides.as_deref().filter(|t| !t.is_empty()) else {
        return Ok(pod);
    };
    let how = match o.override_type.as_deref() {
        None => PatchType::Merge,
        Some(t) => {
            PatchType::from_flag(t).ok_or_else(|| format!("error: invalid override type: {t}"))?
        }
    };
    let body =
        serde_json::from_str::<Value>(text).map_err(|_| "error: Invalid JSON Patch".to_string())?;
    k8s_patch::apply(&pod, &body, how).map_err(|_| "error: Invalid JSON Patch".to_string())
}

pub(super) fn run(cx: &mut Ctx, c: &mut Cluster, o: &Opts, words: &[String]) -> i32 {
    // cobra checks the required flag before kubectl looks at the arguments.
    let Some(image) = o.image.as_deref() else {
        cx.eprintln("error: required flag(s) \"image\" not set");
        return 1;
    };
    let Some(name) = words.first() else {
        cx.eprintln("error: NAME is required for run");
        return 1;
    };
    if o.rm && !o.attach {
        cx.eprintln("error: --rm should only be used for attached containers");
        return 1;
    }
    if o.attach {
        // The simulated containers run no programs to attach to.
        cx.eprintln("error: attaching to a container (-i, -t, --attach) is not available on the simulated cluster: run the pod without them, then look at it with kubectl get pods and kubectl logs");
        return 1;
    }
    if image.is_empty() {
        cx.eprintln("error: --image is required");
        return 1;
    }
    let pod = restart_policy(o)
        .map(|r| generated_pod(name, o, image, &r))
        .and_then(|p| overridden(p, o));
    let pod = match pod.and_then(|p| reparse(&p, cx.state.now())) {
        Ok(Object::Pod(p)) => p,
        Ok(_) => {
            cx.eprintln("error: the overrides changed the kind of the generated Pod");
            return 1;
        }
        Err(e) => {
            cx.eprintln(&e);
            return 1;
        }
    };
    create_pod(cx, c, o, pod)
}

/// Submits a generated pod as `kubectl run` does: into `-n` or the default namespace.
fn create_pod(cx: &mut Ctx, c: &mut Cluster, o: &Opts, mut pod: Pod) -> i32 {
    pod.namespace = ns(o);
    if !c.has_namespace(&pod.namespace) {
        cx.eprintln(&format!(
            "Error from server (NotFound): namespaces \"{}\" not found",
            pod.namespace
        ));
        return 1;
    }
    if c.pods
        .iter()
        .any(|p| p.name == pod.name && p.namespace == pod.namespace)
    {
        cx.eprintln(&format!(
            "Error from server (AlreadyExists): pods \"{}\" already exists",
            pod.name
        ));
        return 1;
    }
    cx.println(&format!("pod/{} created", pod.name));
    c.pods.push(pod);
    0
}

/// `kubectl logs POD [-c CONTAINER] [-n NS]` (also `POD CONTAINER`, `pod/NAME`, `ds/NAME`). The
/// simulated containers write nothing, so a pod that exists has empty logs, as a Pending pod's
/// are on a real cluster; what a learner gets wrong (the pod, its namespace, the container) is
/// answered as the API server would.
pub(super) fn logs(cx: &mut Ctx, c: &Cluster, o: &Opts, words: &[String]) -> i32 {
    let (target, container) = match words {
        [t] => (t, o.container.clone()),
        [t, ct] => (t, Some(ct.clone())),
        _ => {
            return usage(
                cx,
                "expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command",
                "logs",
            );
        }
    };
    let p = match logs_pod(c, &ns(o), target) {
        Ok(p) => p,
        Err(e) => {
            cx.eprintln(&e);
            return 1;
        }
    };
    if let Some(want) = container
        && !p.containers.iter().any(|x| x.name == want)
    {
        cx.eprintln(&format!(
            "Error from server (BadRequest): container {want} is not valid for pod {}",
            p.name
        ));
        return 1;
    }
    0
}

/// The pod `logs` reads: by name, `pod/NAME`, or the first pod of `daemonset/NAME`.
fn logs_pod<'a>(c: &'a Cluster, namespace: &str, target: &str) -> Result<&'a Pod, String> {
    let (k, name) = match target.split_once('/') {
        Some((res, n)) => (
            kind(res).ok_or_else(|| {
                format!("error: the server doesn't have a resource type \"{res}\"")
            })?,
            n,
        ),
        None => (Kind::Pod, target),
    };
    let in_ns = |p: &&Pod| p.namespace == namespace;
    match k {
        Kind::Pod => c
            .pods
            .iter()
            .filter(in_ns)
            .find(|p| p.name == name)
            .ok_or_else(|| not_found("pods", name)),
        Kind::DaemonSet => {
            let owner = format!("DaemonSet/{name}");
            c.pods
                .iter()
                .filter(in_ns)
                .find(|p| p.owner.as_deref() == Some(owner.as_str()))
                .ok_or_else(|| not_found("daemonsets.apps", name))
        }
        Kind::Node | Kind::Namespace => Err(format!(
            "error: cannot get the logs from {}: only pods and the workloads that own them have logs",
            plural(k)
        )),
    }
}
