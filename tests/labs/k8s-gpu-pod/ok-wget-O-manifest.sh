kubectl label node mi300x-node gpu=true
wget -O plugin.yaml https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-dp.yaml
kubectl apply -f plugin.yaml
kubectl apply -f ./gpu-pod.yaml
