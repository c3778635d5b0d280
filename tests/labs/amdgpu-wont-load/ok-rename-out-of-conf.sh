# variant: blacklist
ls /etc/modprobe.d
sudo mv /etc/modprobe.d/blacklist-amdgpu.conf /etc/modprobe.d/blacklist-amdgpu.conf.disabled
