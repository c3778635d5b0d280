# expect: label: Node mi300x-node already has gpu=yes
kubectl label node mi300x-node gpu=yes
kubectl create -f https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-dp.yaml
kubectl apply -f gpu-pod.yaml
kubectl get pods
