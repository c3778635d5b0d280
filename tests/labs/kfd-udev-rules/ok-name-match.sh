printf '%s\n' 'KERNEL=="kfd", MODE="0666"' 'KERNEL=="renderD*", MODE="0666"' | sudo tee /etc/udev/rules.d/60-rocm.rules
sudo udevadm control --reload-rules
sudo udevadm trigger --name-match=/dev/kfd
sudo udevadm trigger --name-match=/dev/dri/renderD128
