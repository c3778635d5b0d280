# expect: pod: is in the kube-system namespace; this lab wants it in default
kubectl label node mi300x-node gpu=true
kubectl apply -f https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-dp.yaml
kubectl apply -f gpu-pod.yaml -n kube-system
