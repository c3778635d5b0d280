# expect: loaded: The amdgpu kernel module is not loaded
sudo modprobe amdgpu
sudo rm /etc/modprobe.d/blacklist-amdgpu.conf
sudo modprobe -r amdgpu
