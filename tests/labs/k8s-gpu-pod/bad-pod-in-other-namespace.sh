# expect: pod: No pod in the default namespace asks for amd.com/gpu yet
kubectl label node mi300x-node gpu=true
kubectl apply -f https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-dp.yaml
kubectl apply -f gpu-pod.yaml -n kube-system
