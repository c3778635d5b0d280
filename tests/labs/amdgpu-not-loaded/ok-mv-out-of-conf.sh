sudo mv /etc/modprobe.d/blacklist-amdgpu.conf /etc/modprobe.d/blacklist-amdgpu.conf.disabled
sudo modprobe -v amdgpu
amd-smi list
