helm repo add amd-gpu https://rocm.github.io/k8s-device-plugin/
helm repo update
helm install --namespace=kube-system --timeout 5m amd-gpu amd-gpu/amd-gpu --wait
kubectl label node mi300x-node gpu=true
kubectl apply -f gpu-pod.yaml
