//! `kubectl get`: one table per kind, laid out as kubectl's printers lay it out.

use super::super::super::Ctx;
use super::super::super::k8s::{Cluster, Phase, Pod};
use super::super::table;
use super::{Kind, Opts, age, check_output, missing, ns, target};

pub(super) fn get(cx: &mut Ctx, c: &Cluster, o: &Opts, words: &[String]) -> i32 {
    let (k, names) = match target(cx, words) {
        Ok(t) => t,
        Err(code) => return code,
    };
    if let Err(code) = check_output(cx, o) {
        return code;
    }
    match k {
        Kind::Node => get_nodes(cx, c, o, &names),
        Kind::Pod => get_pods(cx, c, o, &names),
        Kind::DaemonSet => get_daemonsets(cx, c, o, &names),
        Kind::Namespace => get_namespaces(cx, c, &names),
    }
}

/// `get nodes`: status, roles, age and version; `-o wide` adds addresses, OS and kernel.
fn get_nodes(cx: &mut Ctx, c: &Cluster, o: &Opts, names: &[String]) -> i32 {
    let wide = o.output.as_deref() == Some("wide");
    let name_only = o.output.as_deref() == Some("name");
    let mut rows = vec![];
    let mut header = vec!["NAME", "STATUS", "ROLES", "AGE", "VERSION"];
    if wide {
        header.extend([
            "INTERNAL-IP",
            "EXTERNAL-IP",
            "OS-IMAGE",
            "KERNEL-VERSION",
            "CONTAINER-RUNTIME",
        ]);
    }
    if o.show_labels {
        header.push("LABELS");
    }
    rows.push(header.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    for n in &c.nodes {
        if !names.is_empty() && !names.contains(&n.name) {
            continue;
        }
        if name_only {
            cx.println(&format!("node/{}", n.name));
            continue;
        }
        let mut r = vec![
            n.name.clone(),
            "Ready".into(),
            if n.roles.is_empty() {
                "<none>".into()
            } else {
                n.roles.join(",")
            },
            age(cx, n.created),
            c.version.clone(),
        ];
        if wide {
            r.extend([
                n.internal_ip.clone(),
                "<none>".into(),
                n.os_image.clone(),
                n.kernel.clone(),
                "containerd://1.7.22".into(),
            ]);
        }
        if o.show_labels {
            r.push(
                n.labels
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(","),
            );
        }
        rows.push(r);
    }
    let code = missing(cx, "nodes", names, |n| c.nodes.iter().any(|x| x.name == n));
    if rows.len() > 1 {
        cx.print(&table(&rows, 3, ""));
    }
    code
}

/// `get pods`: readiness and phase per pod of one namespace, or of all with `-A`.
fn get_pods(cx: &mut Ctx, c: &Cluster, o: &Opts, names: &[String]) -> i32 {
    let wide = o.output.as_deref() == Some("wide");
    let name_only = o.output.as_deref() == Some("name");
    let all = o.all_ns;
    let namespace = ns(o);
    let mut header = begin_header(o);
    header.extend(["NAME", "READY", "STATUS", "RESTARTS", "AGE"]);
    if wide {
        header.extend(["IP", "NODE", "NOMINATED NODE", "READINESS GATES"]);
    }
    if o.show_labels {
        header.push("LABELS");
    }
    let mut rows = vec![header.iter().map(|s| s.to_string()).collect::<Vec<_>>()];
    let mut pods: Vec<&Pod> = c
        .pods
        .iter()
        .filter(|p| all || p.namespace == namespace)
        .filter(|p| names.is_empty() || names.contains(&p.name))
        .collect();
    pods.sort_by(|a, b| (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name)));
    for p in &pods {
        let Some(mut r) = begin_row(cx, o, "pod", &p.namespace, &p.name) else {
            continue;
        };
        let ready = match p.phase {
            Phase::Running => format!("{0}/{0}", p.containers.len()),
            Phase::Pending => format!("0/{}", p.containers.len()),
        };
        r.extend([
            p.name.clone(),
            ready,
            p.phase.as_str().into(),
            "0".into(),
            age(cx, p.created),
        ]);
        if wide {
            r.extend([
                p.ip.clone().unwrap_or_else(|| "<none>".into()),
                p.node.clone().unwrap_or_else(|| "<none>".into()),
                "<none>".into(),
                "<none>".into(),
            ]);
        }
        if o.show_labels {
            r.push(if p.labels.is_empty() {
                "<none>".into()
            } else {
                p.labels
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(",")
            });
        }
        rows.push(r);
    }
    let code = missing(cx, "pods", names, |n| pods.iter().any(|p| p.name == n));
    if rows.len() > 1 {
        cx.print(&table(&rows, 3, ""));
    } else if names.is_empty() && !name_only {
        if all {
            cx.eprintln("No resources found");
        } else {
            cx.eprintln(&format!("No resources found in {namespace} namespace."));
        }
    }
    code
}

/// `get daemonsets`: one pod per node, so every count is the number of nodes.
fn get_daemonsets(cx: &mut Ctx, c: &Cluster, o: &Opts, names: &[String]) -> i32 {
    let name_only = o.output.as_deref() == Some("name");
    let all = o.all_ns;
    let namespace = ns(o);
    let mut header = begin_header(o);
    header.extend([
        "NAME",
        "DESIRED",
        "CURRENT",
        "READY",
        "UP-TO-DATE",
        "AVAILABLE",
        "NODE SELECTOR",
        "AGE",
    ]);
    let mut rows = vec![header.iter().map(|s| s.to_string()).collect::<Vec<_>>()];
    let n = c.nodes.len().to_string();
    for d in c.daemonsets.iter().filter(|d| {
        (all || d.namespace == namespace) && (names.is_empty() || names.contains(&d.name))
    }) {
        let Some(mut r) = begin_row(cx, o, "daemonset.apps", &d.namespace, &d.name) else {
            continue;
        };
        r.extend([
            d.name.clone(),
            n.clone(),
            n.clone(),
            n.clone(),
            n.clone(),
            n.clone(),
            "<none>".into(),
            age(cx, d.created),
        ]);
        rows.push(r);
    }
    let code = missing(cx, "daemonsets.apps", names, |n| {
        c.daemonsets
            .iter()
            .any(|d| d.name == n && d.namespace == namespace)
    });
    if rows.len() > 1 {
        cx.print(&table(&rows, 3, ""));
    } else if names.is_empty() && !name_only {
        cx.eprintln(&format!("No resources found in {namespace} namespace."));
    }
    code
}

/// The header of a table of namespaced objects: NAMESPACE first under `-A`.
fn begin_header(o: &Opts) -> Vec<&'static str> {
    if o.all_ns { vec!["NAMESPACE"] } else { vec![] }
}

/// The row of one namespaced object: its namespace first under `-A`. Under `-o name` there is
/// none: `KIND/NAME` is printed instead.
fn begin_row(
    cx: &mut Ctx,
    o: &Opts,
    kind: &str,
    namespace: &str,
    name: &str,
) -> Option<Vec<String>> {
    if o.output.as_deref() == Some("name") {
        cx.println(&format!("{kind}/{name}"));
        return None;
    }
    Some(if o.all_ns {
        vec![namespace.to_string()]
    } else {
        vec![]
    })
}

/// `get namespaces`: the built-in four and those made with `create namespace`.
fn get_namespaces(cx: &mut Ctx, c: &Cluster, names: &[String]) -> i32 {
    let created = c
        .nodes
        .first()
        .map(|n| n.created)
        .unwrap_or(cx.state.boot_time);
    let mut rows = vec![vec!["NAME".to_string(), "STATUS".into(), "AGE".into()]];
    for n in c.namespace_list(created) {
        if names.is_empty() || names.contains(&n.name) {
            rows.push(vec![n.name.clone(), "Active".into(), age(cx, n.created)]);
        }
    }
    let code = missing(cx, "namespaces", names, |n| c.has_namespace(n));
    if rows.len() > 1 {
        cx.print(&table(&rows, 3, ""));
    }
    code
}
