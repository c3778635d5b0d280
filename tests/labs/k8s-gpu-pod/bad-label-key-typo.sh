# expect: label: No GPU node carries the label gpu=true
kubectl label node mi300x-node gpus=true
kubectl apply -f https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-dp.yaml
kubectl apply -f gpu-pod.yaml
