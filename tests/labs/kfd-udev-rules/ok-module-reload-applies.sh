printf '%s\n' 'KERNEL=="kfd", MODE="0666"' 'SUBSYSTEM=="drm", KERNEL=="renderD*", MODE="0666"' | sudo tee /etc/udev/rules.d/70-amdgpu.rules
sudo systemctl restart systemd-udevd
sudo udevadm trigger
ls -l /dev/kfd
