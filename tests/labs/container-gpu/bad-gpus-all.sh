# expect: devices: that flag asks for NVIDIA's container runtime
# --gpus is Docker's flag for NVIDIA's runtime; AMD GPUs are device nodes.
sudo docker run --rm --gpus all --group-add 992 rocm/rocm-terminal rocminfo
