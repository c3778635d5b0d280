# variant: blacklist
journalctl -k | grep -i amdgpu
sudo sed -i '/^blacklist amdgpu/d' /etc/modprobe.d/blacklist-amdgpu.conf
cat /etc/modprobe.d/blacklist-amdgpu.conf
