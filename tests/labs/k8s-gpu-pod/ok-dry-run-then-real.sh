# Each change tried as a dry run first, then made.
kubectl label node mi300x-node gpu=true --dry-run=client
kubectl label node mi300x-node gpu=true
kubectl create --dry-run=server -f https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-dp.yaml
kubectl create -f https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-dp.yaml
kubectl apply -f gpu-pod.yaml --dry-run=client
kubectl apply -f gpu-pod.yaml
kubectl get pods
