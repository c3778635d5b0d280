# expect: rule: No udev rule gives /dev/kfd mode 0666
printf '%s\n' 'KERNEL=="kfd", MODE="0664"' 'SUBSYSTEM=="drm", KERNEL=="renderD*", MODE="0666"' | sudo tee /etc/udev/rules.d/70-amdgpu.rules
sudo udevadm trigger
