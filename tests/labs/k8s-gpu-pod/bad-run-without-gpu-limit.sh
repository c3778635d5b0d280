# expect: pod: No pod in the default namespace asks for amd.com/gpu yet
# kubectl run alone asks for no GPU: the request belongs in the container's limits.
kubectl label node mi300x-node gpu=true
kubectl create -f https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-dp.yaml
kubectl run gpu-smoke --image=rocm/rocm-terminal --restart=Never
