echo 'SUBSYSTEM=="kfd", KERNEL=="kfd", MODE="0666"' | sudo tee /etc/udev/rules.d/99-kfd.rules
echo 'SUBSYSTEM=="drm", KERNEL=="renderD*", MODE="0666"' | sudo tee /etc/udev/rules.d/99-render.rules
sudo udevadm control --reload-rules
sudo udevadm trigger
