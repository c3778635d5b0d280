kubectl label node mi300x-node gpu=yes
kubectl label node mi300x-node gpu=true --overwrite
kubectl apply -f https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-dp.yaml
kubectl apply -f gpu-pod.yaml
