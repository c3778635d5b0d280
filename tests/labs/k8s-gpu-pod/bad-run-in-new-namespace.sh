# expect: pod: is in the gpu-tests namespace; this lab wants it in default
# The lab's pod belongs in the default namespace; a namespace of one's own does not count.
kubectl label node mi300x-node gpu=true
kubectl create -f https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-dp.yaml
kubectl create namespace gpu-tests
kubectl apply -f gpu-pod.yaml -n gpu-tests
kubectl get pods -n gpu-tests
