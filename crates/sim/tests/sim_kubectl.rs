//! kubectl's forms for changing a cluster in place, against golden transcripts in
//! tests/golden/sim: `create namespace`, `patch` (strategic, merge and JSON), `run` with
//! `--overrides`, `logs` and `version`. Regenerate with
//! `UPDATE_GOLDEN=1 cargo test -p rocm-sim --test sim_kubectl` and review the diff.

mod sim_common;

use sim_common::{Stage, check, mi300x};

const PLUGIN_URL: &str =
    "https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-dp.yaml";

fn cluster() -> Stage {
    mi300x(|s| s.k8s = true)
}

fn node_label(st: &Stage, key: &str) -> Option<String> {
    let state = st.state();
    let c = state.cluster.expect("cluster");
    c.nodes[0].labels.get(key).cloned()
}

#[test]
fn namespaces_are_created_listed_and_deleted() {
    let st = cluster();
    check(
        &st,
        "kubectl_create_namespace",
        "kubectl create namespace gpu",
    );
    check(
        &st,
        "kubectl_create_namespace_exists",
        "kubectl create namespace gpu",
    );
    check(
        &st,
        "kubectl_create_namespace_invalid",
        "kubectl create namespace GPU",
    );
    check(
        &st,
        "kubectl_create_namespace_no_name",
        "kubectl create namespace",
    );
    check(&st, "kubectl_get_namespaces_created", "kubectl get ns");
    st.write("/home/learner/pod.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: gpu\nspec:\n  containers:\n  - name: c\n    image: rocm/rocm-terminal\n");
    assert_eq!(st.run("kubectl apply -f pod.yaml").code, 0);
    check(
        &st,
        "kubectl_delete_namespace_builtin",
        "kubectl delete namespace default",
    );
    check(
        &st,
        "kubectl_delete_namespace",
        "kubectl delete namespace gpu",
    );
    let gone = st.run("kubectl get pods -n gpu");
    assert!(
        gone.stdout.is_empty(),
        "the namespace's pods go with it: {}",
        String::from_utf8_lossy(&gone.stdout)
    );
}

#[test]
fn patch_labels_a_node_three_ways() {
    let st = cluster();
    check(
        &st,
        "kubectl_patch_node_strategic",
        r#"kubectl patch node mi300x-node -p {"metadata":{"labels":{"gpu":"true"}}}"#,
    );
    assert_eq!(node_label(&st, "gpu").as_deref(), Some("true"));
    check(
        &st,
        "kubectl_patch_node_no_change",
        r#"kubectl patch node mi300x-node -p {"metadata":{"labels":{"gpu":"true"}}}"#,
    );
    check(
        &st,
        "kubectl_patch_node_merge_remove",
        r#"kubectl patch node/mi300x-node --type=merge -p {"metadata":{"labels":{"gpu":null}}}"#,
    );
    assert_eq!(node_label(&st, "gpu"), None);
    check(
        &st,
        "kubectl_patch_node_json_add",
        r#"kubectl patch node mi300x-node --type json -p [{"op":"add","path":"/metadata/labels/amd.com~1gpu.ready","value":"yes"}]"#,
    );
    assert_eq!(node_label(&st, "amd.com/gpu.ready").as_deref(), Some("yes"));
}

#[test]
fn patch_errors_read_like_kubectl() {
    let st = cluster();
    check(
        &st,
        "kubectl_patch_no_body",
        "kubectl patch node mi300x-node",
    );
    check(
        &st,
        "kubectl_patch_bad_type",
        "kubectl patch node mi300x-node --type=apply -p {}",
    );
    check(
        &st,
        "kubectl_patch_label_bool",
        r#"kubectl patch node mi300x-node -p {"metadata":{"labels":{"gpu":true}}}"#,
    );
    check(
        &st,
        "kubectl_patch_json_replace_missing",
        r#"kubectl patch node mi300x-node --type=json -p [{"op":"replace","path":"/metadata/labels/gpu","value":"true"}]"#,
    );
    check(
        &st,
        "kubectl_patch_unparsable",
        r#"kubectl patch node mi300x-node -p {"metadata":"#,
    );
    check(
        &st,
        "kubectl_patch_missing_node",
        r#"kubectl patch node gpu-node-7 -p {"metadata":{"labels":{"gpu":"true"}}}"#,
    );
    check(&st, "kubectl_patch_no_name", "kubectl patch node -p {}");
    check(
        &st,
        "kubectl_patch_name_as_type",
        "kubectl patch mi300x-node -p {}",
    );
    check(&st, "kubectl_patch_nothing", "kubectl patch -p {}");
    assert_eq!(
        node_label(&st, "gpu"),
        None,
        "no failed patch changes the node"
    );
}

#[test]
fn patch_changes_a_daemonsets_image_and_refuses_a_pod_spec_change() {
    let st = cluster();
    assert_eq!(st.run(&format!("kubectl create -f {PLUGIN_URL}")).code, 0);
    check(
        &st,
        "kubectl_patch_daemonset_image",
        r#"kubectl patch ds amdgpu-device-plugin-daemonset -n kube-system -p {"spec":{"template":{"spec":{"containers":[{"name":"amdgpu-dp-cntr","image":"rocm/k8s-device-plugin:1.31.0.6"}]}}}}"#,
    );
    let state = st.state();
    let ds = &state.cluster.expect("cluster").daemonsets;
    let plugin = ds
        .iter()
        .find(|d| d.name == "amdgpu-device-plugin-daemonset")
        .expect("plugin");
    assert_eq!(
        plugin.image, "rocm/k8s-device-plugin:1.31.0.6",
        "a strategic patch merges the container by name"
    );
    assert_eq!(
        st.run("kubectl run smoke --image=rocm/rocm-terminal").code,
        0
    );
    check(
        &st,
        "kubectl_patch_pod_forbidden",
        r#"kubectl patch pod smoke -p {"spec":{"nodeSelector":{"gpu":"true"}}}"#,
    );
    check(
        &st,
        "kubectl_patch_pod_image",
        r#"kubectl patch pod smoke -p {"spec":{"containers":[{"name":"smoke","image":"rocm/pytorch:latest"}]}}"#,
    );
}

#[test]
fn run_with_overrides_asks_for_a_gpu() {
    let st = cluster();
    assert_eq!(st.run(&format!("kubectl create -f {PLUGIN_URL}")).code, 0);
    check(
        &st,
        "kubectl_run_overrides",
        r#"kubectl run gpu-smoke --image=rocm/rocm-terminal --restart=Never --overrides={"spec":{"containers":[{"name":"gpu-smoke","image":"rocm/rocm-terminal","resources":{"limits":{"amd.com/gpu":"1"}}}]}}"#,
    );
    check(
        &st,
        "kubectl_run_get_pods",
        "kubectl get pods --show-labels",
    );
    check(
        &st,
        "kubectl_run_exists",
        "kubectl run gpu-smoke --image=rocm/rocm-terminal",
    );
    check(&st, "kubectl_run_no_image", "kubectl run other");
    check(
        &st,
        "kubectl_run_bad_restart",
        "kubectl run other --image=rocm/rocm-terminal --restart=never",
    );
    check(
        &st,
        "kubectl_run_bad_overrides",
        "kubectl run other --image=rocm/rocm-terminal --overrides={spec",
    );
    check(
        &st,
        "kubectl_run_missing_namespace",
        "kubectl run other --image=rocm/rocm-terminal -n gpu",
    );
}

#[test]
fn logs_and_version() {
    let st = cluster();
    assert_eq!(
        st.run("kubectl run smoke --image=rocm/rocm-terminal").code,
        0
    );
    check(&st, "kubectl_logs_empty", "kubectl logs smoke");
    check(
        &st,
        "kubectl_logs_other_namespace",
        "kubectl logs smoke -n kube-system",
    );
    check(
        &st,
        "kubectl_logs_bad_container",
        "kubectl logs pod/smoke -c main",
    );
    check(&st, "kubectl_logs_no_pod", "kubectl logs");
    check(
        &st,
        "kubectl_logs_pod_container",
        "kubectl logs smoke smoke",
    );
    check(
        &st,
        "kubectl_logs_daemonset",
        "kubectl logs ds/kube-proxy -n kube-system",
    );
    check(
        &st,
        "kubectl_logs_missing_daemonset",
        "kubectl logs ds/kube-proxy",
    );
    check(
        &st,
        "kubectl_run_attached",
        "kubectl run -it --rm shell --image=rocm/rocm-terminal --restart=Never -- bash",
    );
    check(
        &st,
        "kubectl_run_rm_unattached",
        "kubectl run shell --rm --image=rocm/rocm-terminal",
    );
    check(&st, "kubectl_version", "kubectl version");
    check(&st, "kubectl_version_client", "kubectl version --client");
}

#[test]
fn namespace_manifests_and_patch_files() {
    let st = cluster();
    st.write(
        "/home/learner/ns.yaml",
        "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: gpu-jobs\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: gpu-jobs\nspec:\n  containers:\n  - name: c\n    image: rocm/rocm-terminal\n",
    );
    check(
        &st,
        "kubectl_create_namespace_manifest",
        "kubectl create -f ns.yaml",
    );
    check(
        &st,
        "kubectl_apply_namespace_manifest_again",
        "kubectl apply -f ns.yaml",
    );
    check(
        &st,
        "kubectl_delete_namespace_manifest",
        "kubectl delete -f ns.yaml",
    );
    st.write(
        "/home/learner/label.yaml",
        "metadata:\n  labels:\n    gpu: \"true\"\n",
    );
    check(
        &st,
        "kubectl_patch_file",
        "kubectl patch node mi300x-node --patch-file label.yaml",
    );
    assert_eq!(node_label(&st, "gpu").as_deref(), Some("true"));
    check(
        &st,
        "kubectl_patch_file_missing",
        "kubectl patch node mi300x-node --patch-file nothere.yaml",
    );
}

#[test]
fn dry_runs_print_and_change_nothing() {
    let st = cluster();
    st.write("/home/learner/gpu-pod.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: gpu-workload\nspec:\n  containers:\n  - name: c\n    image: rocm/rocm-terminal\n");
    assert_eq!(st.run("kubectl create namespace scratch").code, 0);
    let before = st.state().cluster;
    check(
        &st,
        "kubectl_dry_run_label",
        "kubectl label node mi300x-node gpu=true --dry-run=client",
    );
    check(
        &st,
        "kubectl_dry_run_create_server",
        &format!("kubectl create --dry-run=server -f {PLUGIN_URL}"),
    );
    check(
        &st,
        "kubectl_dry_run_apply",
        "kubectl apply -f gpu-pod.yaml --dry-run=client",
    );
    check(
        &st,
        "kubectl_dry_run_patch",
        r#"kubectl patch node mi300x-node -p {"metadata":{"labels":{"gpu":"true"}}} --dry-run=client"#,
    );
    check(
        &st,
        "kubectl_dry_run_run",
        "kubectl run t --image=rocm/rocm-terminal --dry-run=client",
    );
    check(
        &st,
        "kubectl_dry_run_create_namespace",
        "kubectl create namespace gpu --dry-run=server",
    );
    check(
        &st,
        "kubectl_dry_run_delete",
        "kubectl delete namespace scratch --dry-run=client",
    );
    assert_eq!(st.state().cluster, before, "a dry run changed the cluster");
    assert_eq!(node_label(&st, "gpu"), None);
    check(
        &st,
        "kubectl_dry_run_bare",
        "kubectl label node mi300x-node gpu=true --dry-run",
    );
    check(
        &st,
        "kubectl_dry_run_bad_value",
        "kubectl apply -f gpu-pod.yaml --dry-run=yes",
    );
    check(
        &st,
        "kubectl_dry_run_on_get",
        "kubectl get pods --dry-run=client",
    );
    check(
        &st,
        "kubectl_dry_run_none",
        "kubectl label node mi300x-node gpu=true --dry-run=none",
    );
    assert_eq!(node_label(&st, "gpu").as_deref(), Some("true"));
}
