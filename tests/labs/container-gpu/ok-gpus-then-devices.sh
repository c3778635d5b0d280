# The NVIDIA habit first, then AMD's devices.
sudo docker run --rm --gpus all rocm/rocm-terminal rocminfo
sudo docker run --rm --device=/dev/kfd --device=/dev/dri --group-add 992 rocm/rocm-terminal rocminfo
