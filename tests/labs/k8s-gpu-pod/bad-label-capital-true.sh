# expect: label: label values are case-sensitive
# --overwrite is there; the slip is the capital T.
kubectl label node mi300x-node gpu=True --overwrite
kubectl create -f https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-dp.yaml
kubectl apply -f gpu-pod.yaml
