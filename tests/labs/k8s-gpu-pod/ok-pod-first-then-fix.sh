kubectl apply -f gpu-pod.yaml
kubectl describe pod gpu-workload
kubectl label node mi300x-node gpu=true
kubectl get pod gpu-workload
kubectl apply -f https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-dp.yaml
kubectl get pod gpu-workload -o wide
