sudo rm /etc/modprobe.d/blacklist-amdgpu.conf
sudo systemctl reboot
