# expect: rule: No udev rule gives /dev/kfd mode 0666
echo 'KERNEL="kfd", MODE="0666"' | sudo tee /etc/udev/rules.d/70-amdgpu.rules
echo 'SUBSYSTEM=="drm", KERNEL=="renderD*", MODE="0666"' | sudo tee -a /etc/udev/rules.d/70-amdgpu.rules
sudo udevadm control --reload-rules && sudo udevadm trigger
