# The plugin was created with NVIDIA's image; patching the DaemonSet to AMD's image fixes it.
kubectl label node mi300x-node gpu=true
curl -fsSL https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-dp.yaml | sed 's#image: rocm/k8s-device-plugin#image: nvcr.io/nvidia/k8s-device-plugin:v0.14.1#' | kubectl apply -f -
kubectl patch daemonset amdgpu-device-plugin-daemonset -n kube-system --type=json -p='[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"rocm/k8s-device-plugin"}]'
kubectl apply -f gpu-pod.yaml
