//! `kubectl label`: set (`key=value`) and remove (`key-`) labels of nodes and pods.

use std::collections::BTreeMap;
use std::ops::ControlFlow;

use super::super::super::Ctx;
use super::super::super::k8s::Cluster;
use super::{Kind, Opts, ns, plural, resource};

/// A label change: a value to set, or `None` to remove the key.
type Change = (String, Option<String>);

pub(super) fn label(cx: &mut Ctx, c: &mut Cluster, o: &Opts, words: &[String]) -> i32 {
    let (k, names, changes) = match request(cx, words) {
        Ok(r) => r,
        Err(code) => return code,
    };
    if names.is_empty() && !o.all {
        cx.eprintln("error: resource(s) were provided, but no name was specified");
        return 1;
    }
    let namespace = ns(o);
    let targets = if o.all {
        every(c, k, &namespace)
    } else {
        names
    };
    let mut code = 0;
    for name in targets {
        match relabel(cx, c, k, &namespace, &name, &changes, o.overwrite) {
            ControlFlow::Continue(this) => code = code.max(this),
            ControlFlow::Break(code) => return code,
        }
    }
    code
}

/// The resource, its names and the changes: names first, then changes, as kubectl wants.
fn request(cx: &mut Ctx, words: &[String]) -> Result<(Kind, Vec<String>, Vec<Change>), i32> {
    let Some(first) = words.first() else {
        cx.eprintln("error: one or more resources must be specified as <resource> <name> or <resource>/<name>");
        cx.eprintln("See 'kubectl label -h' for help and examples");
        return Err(1);
    };
    let (k, inline) = resource(cx, first)?;
    let mut names: Vec<String> = inline.into_iter().collect();
    let mut changes: Vec<Change> = Vec::new();
    for w in &words[1..] {
        if let Some((key, v)) = w.split_once('=') {
            if key.is_empty() || key.contains(char::is_whitespace) {
                cx.eprintln(&format!("error: invalid label spec: {w}"));
                return Err(1);
            }
            changes.push((key.to_string(), Some(v.to_string())));
        } else if let Some(key) = w.strip_suffix('-') {
            changes.push((key.to_string(), None));
        } else if changes.is_empty() {
            names.push(w.clone());
        } else {
            cx.eprintln(&format!(
                "error: all resources must be specified before label changes: {w}"
            ));
            return Err(1);
        }
    }
    if changes.is_empty() {
        cx.eprintln("error: at least one label update is required");
        return Err(1);
    }
    Ok((k, names, changes))
}

/// `--all`: every node, or every pod of the namespace.
fn every(c: &Cluster, k: Kind, namespace: &str) -> Vec<String> {
    match k {
        Kind::Node => c.nodes.iter().map(|n| n.name.clone()).collect(),
        _ => c
            .pods
            .iter()
            .filter(|p| p.namespace == namespace)
            .map(|p| p.name.clone())
            .collect(),
    }
}

/// Changes one object's labels. A missing object fails on its own (`Continue(1)`); a kind
/// without labels here or a value --overwrite would be needed for stops the call (`Break`).
fn relabel(
    cx: &mut Ctx,
    c: &mut Cluster,
    k: Kind,
    namespace: &str,
    name: &str,
    changes: &[Change],
    overwrite: bool,
) -> ControlFlow<i32, i32> {
    let labels = match k {
        Kind::Node => c
            .nodes
            .iter_mut()
            .find(|n| n.name == name)
            .map(|n| &mut n.labels),
        Kind::Pod => c
            .pods
            .iter_mut()
            .find(|p| p.name == name && p.namespace == namespace)
            .map(|p| &mut p.labels),
        _ => {
            cx.eprintln(&format!(
                "error: labeling {} is not available on the simulated cluster",
                plural(k)
            ));
            return ControlFlow::Break(1);
        }
    };
    let Some(labels) = labels else {
        cx.eprintln(&format!(
            "Error from server (NotFound): {} \"{name}\" not found",
            plural(k)
        ));
        return ControlFlow::Continue(1);
    };
    for (key, v) in changes {
        if let (Some(old), Some(new)) = (labels.get(key), v)
            && old != new
            && !overwrite
        {
            cx.eprintln(&format!(
                "error: '{key}' already has a value ({old}), and --overwrite is false"
            ));
            return ControlFlow::Break(1);
        }
    }
    let outcome = change(labels, changes);
    let prefix = if k == Kind::Node { "node" } else { "pod" };
    cx.println(&format!("{prefix}/{name} {outcome}"));
    ControlFlow::Continue(0)
}

/// Applies the changes; kubectl's word for what happened.
fn change(labels: &mut BTreeMap<String, String>, changes: &[Change]) -> &'static str {
    let before = labels.clone();
    let mut removed_only = true;
    for (key, v) in changes {
        match v {
            Some(v) => {
                removed_only = false;
                labels.insert(key.clone(), v.clone());
            }
            None => {
                labels.remove(key);
            }
        }
    }
    if *labels == before {
        "not labeled"
    } else if removed_only {
        "unlabeled"
    } else {
        "labeled"
    }
}
