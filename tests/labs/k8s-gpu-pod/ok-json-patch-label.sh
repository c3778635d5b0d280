# A JSON patch adds the label (the / in a key would be written ~1; gpu has none).
kubectl version
kubectl patch node/mi300x-node --type=json -p='[{"op":"add","path":"/metadata/labels/gpu","value":"true"}]'
kubectl apply -f https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-dp.yaml
kubectl apply -f gpu-pod.yaml
kubectl get pods -o wide
