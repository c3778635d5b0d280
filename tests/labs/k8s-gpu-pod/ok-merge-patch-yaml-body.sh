# A JSON merge patch written as YAML; the pod is run with a strategic override.
kubectl patch node mi300x-node --type merge -p $'metadata:\n  labels:\n    gpu: "true"'
kubectl create -f https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-dp.yaml
kubectl run rocm-check --image=rocm/pytorch:latest --override-type=strategic --overrides='{"spec":{"containers":[{"name":"rocm-check","resources":{"limits":{"amd.com/gpu":"1"}}}],"nodeSelector":{"gpu":"true"}}}' -- sleep infinity
kubectl describe pod rocm-check | grep -A2 Limits
