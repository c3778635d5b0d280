# expect: persisted: /etc/modprobe.d/blacklist-amdgpu.conf blacklists amdgpu
sudo modprobe amdgpu
rocm-smi
