sudo sh -c 'printf "%s\n" "KERNEL==\"kfd\", MODE=\"0666\"" "SUBSYSTEM==\"drm\", KERNEL==\"renderD*\", MODE=\"0666\"" > /etc/udev/rules.d/70-amdgpu.rules'
cat /etc/udev/rules.d/70-amdgpu.rules
sudo udevadm control -R
sudo udevadm trigger --action=change
