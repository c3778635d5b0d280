printf '%s\n' 'KERNEL=="kfd", MODE:="0666"' 'SUBSYSTEM=="drm", KERNEL=="renderD*", MODE:="0666"' | sudo tee /etc/udev/rules.d/40-amdgpu.rules
sudo udevadm control --reload-rules && sudo udevadm trigger
