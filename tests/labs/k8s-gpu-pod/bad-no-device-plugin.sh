# expect: plugin: The AMD GPU device plugin is not running
kubectl label node mi300x-node gpu=true
kubectl apply -f gpu-pod.yaml
kubectl get pods
