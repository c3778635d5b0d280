kubectl label nodes mi300x-node gpu=true
curl -fsSL https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-dp.yaml | kubectl apply -f -
kubectl create -f gpu-pod.yaml
