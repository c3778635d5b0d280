printf '%s\n' 'KERNEL=="kfd", MODE="0666"' 'KERNEL=="renderD*", MODE="0666"' | sudo tee /etc/udev/rules.d/99-gpu.rules
sudo udevadm trigger -y kfd
sudo udevadm trigger --sysname-match='renderD*'
