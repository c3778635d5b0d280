# expect: rule: its name does not end in .rules, so udev ignores it
printf '%s\n' 'KERNEL=="kfd", MODE="0666"' 'SUBSYSTEM=="drm", KERNEL=="renderD*", MODE="0666"' | sudo tee /etc/udev/rules.d/70-amdgpu.conf
sudo reboot
ls -l /dev/kfd
