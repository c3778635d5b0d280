# A boot's coldplug applies the rules: no udevadm needed.
printf '%s\n' 'KERNEL=="kfd", MODE="0666"' 'SUBSYSTEM=="drm", KERNEL=="renderD*", MODE="0666"' | sudo tee /etc/udev/rules.d/70-amdgpu.rules
sudo reboot
ls -l /dev/kfd /dev/dri/renderD128
stat -c '%a' /dev/kfd
rocminfo
