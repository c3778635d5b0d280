# expect: pod: No pod in the default namespace asks for amd.com/gpu yet
# A merge override replaces the containers list, and a container without name or image is refused.
kubectl label node mi300x-node gpu=true
kubectl create -f https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-dp.yaml
kubectl run gpu-smoke --image=rocm/rocm-terminal --restart=Never --overrides='{"spec":{"containers":[{"resources":{"limits":{"amd.com/gpu":"1"}}}]}}'
