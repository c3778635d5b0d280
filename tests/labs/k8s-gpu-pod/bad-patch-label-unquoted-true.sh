# expect: label: No GPU node carries the label gpu=true
# true without quotes is a JSON boolean; the API server wants label values as strings.
kubectl patch node mi300x-node -p '{"metadata":{"labels":{"gpu":true}}}'
kubectl create -f https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-dp.yaml
kubectl apply -f gpu-pod.yaml
