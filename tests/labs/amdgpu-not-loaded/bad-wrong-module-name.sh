# expect: loaded: The amdgpu kernel module is not loaded
sudo modprobe amdgpu-pro
sudo rm /etc/modprobe.d/blacklist-amdgpu.conf
