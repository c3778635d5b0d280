echo 'SUBSYSTEM=="kfd", KERNEL=="kfd", MODE="0666"' | sudo tee /etc/udev/rules.d/70-kfd.rules
echo 'SUBSYSTEM=="drm", KERNEL=="renderD*", MODE="0666"' | sudo tee /etc/udev/rules.d/71-render.rules
sudo udevadm control --reload
sudo udevadm trigger --subsystem-match kfd
sudo udevadm trigger --subsystem-match=drm
