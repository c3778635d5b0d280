# expect: rule: 70-amdgpu.rule is in /etc/udev/rules.d but its name does not end in .rules
echo 'KERNEL=="kfd", MODE="0666"' | sudo tee /etc/udev/rules.d/70-amdgpu.rule
echo 'SUBSYSTEM=="drm", KERNEL=="renderD*", MODE="0666"' | sudo tee -a /etc/udev/rules.d/70-amdgpu.rule
sudo udevadm control --reload-rules && sudo udevadm trigger
