//! `create` and `apply` of manifests, `delete` of their objects or of objects by name: what
//! the API server answers for each object, in the order of the manifest.

use super::super::super::Ctx;
use super::super::super::catalog;
use super::super::super::k8s::{self, Cluster, DaemonSet, ManifestError, Object, Pod};
use super::{Kind, Opts, change, ns, plural, target};

/// Reads the manifest behind `-f`: a URL the simulator serves, a file, or stdin.
fn read_manifest(cx: &mut Ctx, f: &str) -> Result<String, String> {
    if f == "-" {
        return Ok(String::from_utf8_lossy(&cx.console.read_stdin()).into_owned());
    }
    if f.starts_with("http://") || f.starts_with("https://") {
        if f == catalog::DEVICE_PLUGIN_URL || f == catalog::DEVICE_PLUGIN_HEALTH_URL {
            return Ok(k8s::device_plugin_manifest().to_string());
        }
        if f == catalog::LABELLER_URL {
            return Ok(k8s::labeller_manifest().to_string());
        }
        let host = f
            .split("://")
            .nth(1)
            .unwrap_or("")
            .split('/')
            .next()
            .unwrap_or("");
        if host == "raw.githubusercontent.com" {
            return Err(format!(
                "error: unable to read URL \"{f}\", server reported 404 Not Found, status code=404"
            ));
        }
        return Err(format!(
            "error: Get \"{f}\": dial tcp: lookup {host} on 127.0.0.53:53: server misbehaving"
        ));
    }
    let path = cx.host(f);
    if path.is_dir() {
        return Err(format!(
            "error: the path \"{f}\" is a directory; give the manifest file"
        ));
    }
    std::fs::read(&path)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .map_err(|_| format!("error: the path \"{f}\" does not exist"))
}

fn load_objects(cx: &mut Ctx, o: &Opts, verb: &str) -> Result<Vec<(String, Object)>, i32> {
    if o.files.is_empty() {
        cx.eprintln("error: must specify one of -f and -k");
        cx.eprintln("");
        return Err(1);
    }
    let now = cx.state.now();
    let mut all = Vec::new();
    for f in &o.files {
        let text = match read_manifest(cx, f) {
            Ok(t) => t,
            Err(e) => {
                cx.eprintln(&e);
                return Err(1);
            }
        };
        match k8s::parse_manifests(&text, now) {
            Ok(objs) => all.extend(objs.into_iter().map(|ob| (f.clone(), ob))),
            Err(ManifestError::Syntax(m)) => {
                cx.eprintln(&format!("error: error parsing {f}: {m}"));
                return Err(1);
            }
            Err(ManifestError::Incomplete(m)) => {
                cx.eprintln(&format!("error: error validating \"{f}\": {m}"));
                return Err(1);
            }
            Err(ManifestError::Invalid(m)) => {
                let kind = if m.contains("cannot be handled") {
                    "BadRequest"
                } else {
                    "Invalid"
                };
                let when = if verb == "apply" {
                    "applying"
                } else {
                    "creating"
                };
                cx.eprintln(&format!(
                    "Error from server ({kind}): error when {when} \"{f}\": {m}"
                ));
                return Err(1);
            }
        }
    }
    if all.is_empty() {
        cx.eprintln("error: no objects passed to create");
        return Err(1);
    }
    Ok(all)
}

/// The kinds `create -f` keeps in a list of the cluster, and what differs between them.
trait Stored: Sized {
    /// How kubectl names the resource in its answers (`pod/NAME created`).
    const RESOURCE: &'static str;
    /// How the API server names it in its errors.
    const PLURAL: &'static str;
    /// Namespace and name: what identifies one.
    fn key(&self) -> (&str, &str);
    /// The manifest's fingerprint, to tell an unchanged apply.
    fn spec(&self) -> &str;
    fn list(c: &mut Cluster) -> &mut Vec<Self>;
    /// `apply` with a changed spec: the object updated, or the API server's refusal.
    fn update(&mut self, new: &Self) -> Result<(), String>;
}

impl Stored for Pod {
    const RESOURCE: &'static str = "pod";
    const PLURAL: &'static str = "pods";
    fn key(&self) -> (&str, &str) {
        (&self.namespace, &self.name)
    }
    fn spec(&self) -> &str {
        &self.spec
    }
    fn list(c: &mut Cluster) -> &mut Vec<Self> {
        &mut c.pods
    }
    fn update(&mut self, _new: &Self) -> Result<(), String> {
        Err(change::forbidden_pod_update(&self.name))
    }
}

impl Stored for DaemonSet {
    const RESOURCE: &'static str = "daemonset.apps";
    const PLURAL: &'static str = "daemonsets.apps";
    fn key(&self) -> (&str, &str) {
        (&self.namespace, &self.name)
    }
    fn spec(&self) -> &str {
        &self.spec
    }
    fn list(c: &mut Cluster) -> &mut Vec<Self> {
        &mut c.daemonsets
    }
    fn update(&mut self, new: &Self) -> Result<(), String> {
        self.image = new.image.clone();
        self.spec = new.spec.clone();
        Ok(())
    }
}

pub(super) fn create(cx: &mut Ctx, c: &mut Cluster, o: &Opts, apply: bool) -> i32 {
    let objects = match load_objects(cx, o, if apply { "apply" } else { "create" }) {
        Ok(v) => v,
        Err(code) => return code,
    };
    let mut code = 0;
    for (file, ob) in objects {
        let this = match ob {
            Object::Unknown {
                kind,
                api_version,
                name,
            } => {
                unmapped(cx, &file, &kind, &api_version, &name);
                cx.eprintln("ensure CRDs are installed first");
                1
            }
            Object::Pod(mut p) => {
                // -n places a pod whose manifest names no namespace.
                if let Some(n) = &o.namespace
                    && p.namespace == "default"
                {
                    p.namespace = n.clone();
                }
                submit(cx, c, &file, p, apply)
            }
            Object::Namespace(n) => change::create_namespace_from(cx, c, &file, &n, apply),
            Object::DaemonSet(d) => submit(cx, c, &file, d, apply),
        };
        code = code.max(this);
    }
    code
}

/// One object of a manifest into its namespace: created, left as it is, or updated by
/// `apply`; `create` refuses one that exists.
fn submit<T: Stored>(cx: &mut Ctx, c: &mut Cluster, file: &str, new: T, apply: bool) -> i32 {
    let (namespace, name) = new.key();
    let (namespace, name) = (namespace.to_string(), name.to_string());
    if !c.has_namespace(&namespace) {
        let when = if apply { "applying" } else { "creating" };
        no_namespace(cx, when, file, &namespace);
        return 1;
    }
    let res = T::RESOURCE;
    let list = T::list(c);
    let Some(old) = list.iter_mut().find(|x| x.key() == (&namespace, &name)) else {
        cx.println(&format!("{res}/{name} created"));
        list.push(new);
        return 0;
    };
    if !apply {
        cx.eprintln(&format!("Error from server (AlreadyExists): error when creating \"{file}\": {} \"{name}\" already exists", T::PLURAL));
        return 1;
    }
    if old.spec() == new.spec() {
        cx.println(&format!("{res}/{name} unchanged"));
        return 0;
    }
    match old.update(&new) {
        Ok(()) => {
            cx.println(&format!("{res}/{name} configured"));
            0
        }
        Err(e) => {
            cx.eprintln(&e);
            1
        }
    }
}

/// An object of a kind the cluster does not know (a CRD not installed).
fn unmapped(cx: &mut Ctx, file: &str, kind: &str, api_version: &str, name: &str) {
    cx.eprintln(&format!("error: resource mapping not found for name: \"{name}\" namespace: \"\" from \"{file}\": no matches for kind \"{kind}\" in version \"{api_version}\""));
}

/// An object of a manifest names a namespace the cluster does not have.
fn no_namespace(cx: &mut Ctx, when: &str, file: &str, ns: &str) {
    cx.eprintln(&format!(
        "Error from server (NotFound): error when {when} \"{file}\": namespaces \"{ns}\" not found"
    ));
}

pub(super) fn delete(cx: &mut Ctx, c: &mut Cluster, o: &Opts, words: &[String]) -> i32 {
    if !o.files.is_empty() {
        return delete_files(cx, c, o);
    }
    let (k, names) = match target(cx, words) {
        Ok(t) => t,
        Err(code) => return code,
    };
    if names.is_empty() && !o.all {
        cx.eprintln("error: resource(s) were provided, but no name was specified");
        return 1;
    }
    let namespace = ns(o);
    match k {
        Kind::Pod if o.all => {
            let all: Vec<String> = c
                .pods
                .iter()
                .filter(|p| p.namespace == namespace)
                .map(|p| p.name.clone())
                .collect();
            delete_named::<Pod>(cx, c, &namespace, &all)
        }
        Kind::Pod => delete_named::<Pod>(cx, c, &namespace, &names),
        // --all is for pods only here.
        Kind::DaemonSet => delete_named::<DaemonSet>(cx, c, &namespace, &names),
        Kind::Namespace => change::delete_namespaces(cx, c, &names),
        Kind::Node => {
            cx.eprintln(&format!(
                "Error from server (Forbidden): {} cannot be deleted in this lab",
                plural(k)
            ));
            1
        }
    }
}

/// `delete TYPE NAME...` in one namespace.
fn delete_named<T: Stored>(
    cx: &mut Ctx,
    c: &mut Cluster,
    namespace: &str,
    names: &[String],
) -> i32 {
    let mut code = 0;
    let list = T::list(c);
    for n in names {
        if let Some(i) = list.iter().position(|x| x.key() == (namespace, n)) {
            list.remove(i);
            cx.println(&format!("{} \"{n}\" deleted", T::RESOURCE));
        } else {
            cx.eprintln(&format!(
                "Error from server (NotFound): {} \"{n}\" not found",
                T::PLURAL
            ));
            code = 1;
        }
    }
    code
}

/// `delete -f`: each object of the manifests, in order.
fn delete_files(cx: &mut Ctx, c: &mut Cluster, o: &Opts) -> i32 {
    let objects = match load_objects(cx, o, "delete") {
        Ok(v) => v,
        Err(code) => return code,
    };
    // A namespace deleted earlier in the file takes its pods along; they still count as
    // deleted here, as they were there when the call began (the API server deletes a
    // namespace's contents in the background).
    let at_start = c.clone();
    let mut code = 0;
    for (file, ob) in objects {
        let this = match &ob {
            Object::Namespace(n) => change::delete_namespaces(cx, c, std::slice::from_ref(n)),
            Object::Unknown {
                kind,
                api_version,
                name,
            } => {
                unmapped(cx, &file, kind, api_version, name);
                1
            }
            Object::Pod(_) | Object::DaemonSet(_) => {
                let removed = remove(c, &at_start, &ob);
                deleted(cx, &file, &ob, removed)
            }
        };
        code = code.max(this);
    }
    code
}

/// Takes a manifest's pod or DaemonSet off the cluster; whether it was there when the call
/// began. A pod a DaemonSet owns is not the manifest's.
fn remove(c: &mut Cluster, at_start: &Cluster, ob: &Object) -> bool {
    match ob {
        Object::Pod(p) => {
            let this =
                |x: &Pod| x.name == p.name && x.namespace == p.namespace && x.owner.is_none();
            c.pods.retain(|x| !this(x));
            at_start.pods.iter().any(this)
        }
        Object::DaemonSet(d) => {
            let this = |x: &DaemonSet| x.name == d.name && x.namespace == d.namespace;
            c.daemonsets.retain(|x| !this(x));
            at_start.daemonsets.iter().any(this)
        }
        _ => false,
    }
}

/// kubectl's line for one object of `delete -f`.
fn deleted(cx: &mut Ctx, file: &str, ob: &Object, removed: bool) -> i32 {
    let what = ob.ref_name();
    let (res, name) = what.split_once('/').unwrap_or(("", ""));
    if removed {
        cx.println(&format!("{res} \"{name}\" deleted"));
        return 0;
    }
    cx.eprintln(&format!(
        "Error from server (NotFound): error when deleting \"{file}\": {} \"{name}\" not found",
        ob.kind_plural()
    ));
    1
}
