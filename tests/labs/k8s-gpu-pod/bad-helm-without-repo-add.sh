# expect: plugin: The AMD GPU device plugin is not running
kubectl label node mi300x-node gpu=true
helm install amd-gpu amd-gpu/amd-gpu --namespace kube-system
kubectl apply -f gpu-pod.yaml
