# expect: kfd-applied: The rule is written, but udev has not applied it to /dev/kfd yet
echo 'KERNEL=="kfd", MODE="0666"' | sudo tee /etc/udev/rules.d/70-amdgpu.rules
sudo udevadm control --reload-rules
