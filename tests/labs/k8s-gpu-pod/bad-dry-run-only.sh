# expect: label: No GPU node carries the label gpu=true
# A dry run prints what would happen and changes nothing, on the client or on the server.
kubectl label node mi300x-node gpu=true --dry-run=client
kubectl apply --dry-run=server -f https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-dp.yaml
kubectl apply -f gpu-pod.yaml --dry-run=client
kubectl get pods
