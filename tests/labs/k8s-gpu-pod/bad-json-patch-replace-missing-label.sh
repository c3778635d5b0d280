# expect: label: No GPU node carries the label gpu=true
# replace needs the key to exist already; add is the operation that creates it.
kubectl patch node mi300x-node --type=json -p='[{"op":"replace","path":"/metadata/labels/gpu","value":"true"}]'
kubectl create -f https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-dp.yaml
kubectl apply -f gpu-pod.yaml
