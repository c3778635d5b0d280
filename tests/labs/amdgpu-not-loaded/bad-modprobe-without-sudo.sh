# expect: loaded: The amdgpu kernel module is not loaded
modprobe amdgpu
sudo rm /etc/modprobe.d/blacklist-amdgpu.conf
