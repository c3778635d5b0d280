//! `helm` for AMD's device-plugin chart, as the plugin's README installs it: `helm repo add
//! amd-gpu https://rocm.github.io/k8s-device-plugin/`, then `helm install amd-gpu
//! amd-gpu/amd-gpu --namespace kube-system`. Repositories live where helm keeps them, in the
//! caller's ~/.config/helm/repositories.yaml (a simplified list here).

use super::super::k8s::{self, DaemonSet};
use super::super::{Ctx, fsx};
use super::opts;

const CHART_REPO: &str = "https://rocm.github.io/k8s-device-plugin";

fn repo_file(cx: &Ctx) -> std::path::PathBuf {
    let home = if cx.caller.is_root() {
        "/root".to_string()
    } else {
        format!("/home/{}", cx.caller.user)
    };
    cx.host(&format!("{home}/.config/helm/repositories.yaml"))
}

/// (name, url) of every added repository.
fn repos(cx: &Ctx) -> Vec<(String, String)> {
    fsx::read_opt(&repo_file(cx))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| {
            let l = l.trim().strip_prefix("- name: ")?;
            let (n, u) = l.split_once(" url: ")?;
            Some((n.to_string(), u.to_string()))
        })
        .collect()
}

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    match words.as_slice() {
        ["version", ..] => {
            cx.println("version.BuildInfo{Version:\"v3.16.2\", GitCommit:\"13654a52f7c70a143b1dd51416d633e1071faffb\", GitTreeState:\"clean\", GoVersion:\"go1.22.7\"}");
            0
        }
        ["repo", "add", name, url, ..] => repo_add(cx, name, url),
        ["repo", "update", ..] => {
            let list = repos(cx);
            if list.is_empty() {
                cx.eprintln("Error: no repositories found. You must add one before updating");
                return 1;
            }
            cx.println("Hang tight while we grab the latest from your chart repositories...");
            for (n, _) in list {
                cx.println(&format!(
                    "...Successfully got an update from the \"{n}\" chart repository"
                ));
            }
            cx.println("Update Complete. ⎈Happy Helming!⎈");
            0
        }
        ["install", rest @ ..] => install(cx, rest),
        [] => {
            cx.println("The Kubernetes package manager");
            0
        }
        [other, ..] => {
            cx.eprintln(&format!("Error: unknown command \"{other}\" for \"helm\""));
            cx.eprintln("Run 'helm --help' for usage.");
            1
        }
    }
}

fn repo_add(cx: &mut Ctx, name: &str, url: &str) -> i32 {
    if url.trim_end_matches('/') != CHART_REPO {
        cx.eprintln(&format!(
            "Error: looks like \"{url}\" is not a valid chart repository or cannot be reached: Get \"{}/index.yaml\": dial tcp: lookup {}: Temporary failure in name resolution",
            url.trim_end_matches('/'),
            url.split("://").nth(1).unwrap_or(url).split('/').next().unwrap_or(url)
        ));
        return 1;
    }
    let mut list = repos(cx);
    if list.iter().any(|(n, _)| n == name) {
        cx.println(&format!(
            "\"{name}\" already exists with the same configuration, skipping"
        ));
        return 0;
    }
    list.push((name.to_string(), url.to_string()));
    let text: String = list
        .iter()
        .map(|(n, u)| format!("- name: {n} url: {u}\n"))
        .collect();
    let path = repo_file(cx);
    let written = path
        .parent()
        .map(std::fs::create_dir_all)
        .unwrap_or(Ok(()))
        .and_then(|_| fsx::write_atomic(&path, text.as_bytes()));
    if let Err(e) = written {
        cx.eprintln(&format!("Error: {e}"));
        return 1;
    }
    cx.println(&format!("\"{name}\" has been added to your repositories"));
    0
}

/// `helm install`'s flags that take a value (pflag: `--set a=b` or `--set=a=b`); the value is
/// not a release or chart name.
const INSTALL_VALUES: [&str; 12] = [
    "namespace",
    "set",
    "set-string",
    "set-file",
    "set-json",
    "values",
    "version",
    "timeout",
    "kube-context",
    "kubeconfig",
    "description",
    "repo",
];

/// The namespace and the operands of `helm install`'s words. Flags the chart does not need
/// (`--create-namespace`, `--wait`) are taken and ignored.
fn install_words(args: &[&str]) -> (String, Vec<String>) {
    use opts::Token::{DashDash, Long, Short, Value};
    let words: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let mut p = opts::parser(&words);
    let (mut ns, mut operands) = ("default".to_string(), Vec::new());
    while let Some(t) = opts::next_token(&mut p) {
        match t {
            Short('n') => ns = opts::value(&mut p).unwrap_or_else(|_| ns.clone()),
            Short('f') => {
                let _ = opts::value(&mut p);
            }
            Long(name, glued) if INSTALL_VALUES.contains(&name.as_str()) => {
                let v = glued.or_else(|| opts::value(&mut p).ok());
                if name == "namespace" {
                    ns = v.unwrap_or(ns);
                }
            }
            Short(_) | Long(..) => {}
            DashDash => operands.extend(opts::remaining(&mut p)),
            Value(v) => operands.push(v),
        }
    }
    (ns, operands)
}

fn install(cx: &mut Ctx, args: &[&str]) -> i32 {
    let (ns, operands) = install_words(args);
    let [release, chart] = operands.as_slice() else {
        cx.eprintln(
            "Error: INSTALLATION FAILED: must either provide a name or specify --generate-name",
        );
        return 1;
    };
    let (repo, name) = chart.split_once('/').unwrap_or(("", chart));
    let added = repos(cx).into_iter().find(|(n, _)| n == repo);
    if repo.is_empty() || added.is_none() {
        cx.eprintln(&format!(
            "Error: INSTALLATION FAILED: repo {repo} not found"
        ));
        return 1;
    }
    if name != "amd-gpu" {
        cx.eprintln(&format!(
            "Error: INSTALLATION FAILED: chart \"{name}\" matching  not found in {repo} index. (try 'helm repo update'): no chart name found"
        ));
        return 1;
    }
    let now = cx.state.now();
    let Some(c) = cx.state.cluster.as_mut() else {
        cx.eprintln("Error: INSTALLATION FAILED: Kubernetes cluster unreachable: Get \"http://localhost:8080/version\": dial tcp 127.0.0.1:8080: connect: connection refused");
        return 1;
    };
    if c.has_daemonset(&ns, k8s::DEVICE_PLUGIN_DS) {
        cx.eprintln("Error: INSTALLATION FAILED: cannot re-use a name that is still in use");
        return 1;
    }
    c.daemonsets.push(DaemonSet {
        namespace: ns.clone(),
        name: k8s::DEVICE_PLUGIN_DS.into(),
        image: "rocm/k8s-device-plugin".into(),
        created: now,
        spec: String::new(),
        manifest: None,
    });
    let (y, mo, d, h, mi, s) = super::civil(now);
    cx.println(&format!("NAME: {release}"));
    cx.println(&format!(
        "LAST DEPLOYED: {} {} {d:>2} {h:02}:{mi:02}:{s:02} {y}",
        super::weekday(now),
        super::MONTHS[mo as usize - 1]
    ));
    cx.println(&format!("NAMESPACE: {ns}"));
    cx.println("STATUS: deployed");
    cx.println("REVISION: 1");
    cx.println("TEST SUITE: None");
    0
}

#[cfg(test)]
mod tests {
    use super::install_words;

    #[test]
    fn a_flags_value_is_not_a_release_or_a_chart() {
        let (ns, ops) = install_words(&[
            "amd-gpu",
            "--timeout",
            "5m",
            "amd-gpu/amd-gpu",
            "-n",
            "kube-system",
            "--create-namespace",
        ]);
        assert_eq!(ns, "kube-system");
        assert_eq!(ops, ["amd-gpu", "amd-gpu/amd-gpu"]);
        let (ns, ops) = install_words(&["--namespace=kube-system", "a", "b", "--wait"]);
        assert_eq!((ns.as_str(), ops.len()), ("kube-system", 2));
        let (ns, _) = install_words(&["-nkube-system", "a", "b"]);
        assert_eq!(ns, "kube-system");
    }
}
