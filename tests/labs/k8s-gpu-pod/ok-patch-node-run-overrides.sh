# A strategic merge patch labels the node; kubectl run with --overrides asks for the GPU.
kubectl patch node mi300x-node -p '{"metadata":{"labels":{"gpu":"true"}}}'
kubectl create -f https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-dp.yaml
kubectl run gpu-smoke --image=rocm/rocm-terminal --restart=Never --overrides='{"spec":{"containers":[{"name":"gpu-smoke","image":"rocm/rocm-terminal","resources":{"limits":{"amd.com/gpu":"1"}}}],"nodeSelector":{"gpu":"true"}}}'
kubectl get pods
kubectl logs gpu-smoke
