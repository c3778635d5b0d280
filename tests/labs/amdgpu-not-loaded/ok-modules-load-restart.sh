echo amdgpu | sudo tee /etc/modules-load.d/amdgpu.conf
sudo rm -f /etc/modprobe.d/blacklist-amdgpu.conf
sudo systemctl restart systemd-modules-load
lsmod | grep amdgpu
