# expect: plugin: which is not AMD's device plugin
kubectl label node mi300x-node gpu=true
sed -e 's#rocm/k8s-device-plugin#nvcr.io/nvidia/k8s-device-plugin:v0.14.1#' -e 's#amdgpu-device-plugin-daemonset#nvidia-device-plugin-daemonset#' > nvidia.yaml <<'YAML'
apiVersion: apps/v1
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
      containers:
      - image: rocm/k8s-device-plugin
        name: amdgpu-dp-cntr
YAML
kubectl apply -f nvidia.yaml
kubectl apply -f gpu-pod.yaml
