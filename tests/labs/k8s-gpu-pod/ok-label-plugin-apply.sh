cat gpu-pod.yaml
kubectl get nodes --show-labels
kubectl label node mi300x-node gpu=true
kubectl create -f https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-dp.yaml
kubectl describe node mi300x-node | grep amd.com/gpu
kubectl apply -f gpu-pod.yaml
kubectl get pods
