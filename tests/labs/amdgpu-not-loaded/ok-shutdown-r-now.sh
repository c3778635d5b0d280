sudo sed -i '/blacklist amdgpu/d' /etc/modprobe.d/blacklist-amdgpu.conf
sudo shutdown -r now
