printf '%s\n' 'ACTION=="add", KERNEL=="kfd", MODE="0666"' 'ACTION=="add", SUBSYSTEM=="drm", KERNEL=="renderD*", MODE="0666"' | sudo tee /etc/udev/rules.d/70-amdgpu.rules
sudo udevadm control --reload-rules
sudo udevadm trigger --action=add
