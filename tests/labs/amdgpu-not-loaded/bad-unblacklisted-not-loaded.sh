# expect: loaded: The amdgpu kernel module is not loaded
sudo rm /etc/modprobe.d/blacklist-amdgpu.conf
rocm-smi
