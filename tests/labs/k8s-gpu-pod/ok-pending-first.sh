kubectl apply -f gpu-pod.yaml
kubectl get pods
kubectl describe pod gpu-workload
kubectl label nodes mi300x-node gpu=true
kubectl describe pod gpu-workload
wget -q https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-dp.yaml
kubectl apply -f k8s-ds-amdgpu-dp.yaml
kubectl get ds -n kube-system
kubectl get pods -o wide
