kubectl label nodes --all gpu=true
kubectl apply -f https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-dp.yaml
kubectl apply -f https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-labeller.yaml
kubectl get node mi300x-node --show-labels
kubectl create -f - < gpu-pod.yaml
kubectl get pod gpu-workload
