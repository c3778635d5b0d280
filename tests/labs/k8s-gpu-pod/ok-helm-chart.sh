kubectl label node mi300x-node gpu=true
helm repo add amd-gpu https://rocm.github.io/k8s-device-plugin/
helm repo update
helm install amd-gpu amd-gpu/amd-gpu --namespace kube-system
kubectl apply -f gpu-pod.yaml
kubectl get pods
