# expect: pod: No pod in the default namespace asks for amd.com/gpu yet
kubectl label node mi300x-node gpu=true
kubectl create -f https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-dp.yaml
sed '/resources:/,/amd.com\/gpu/d' gpu-pod.yaml > cpu-pod.yaml
cat cpu-pod.yaml
kubectl apply -f cpu-pod.yaml
kubectl get pods
