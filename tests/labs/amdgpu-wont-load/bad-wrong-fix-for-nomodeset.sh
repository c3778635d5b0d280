# expect: boot: would still carry nomodeset
# variant: nomodeset
sudo rm -f /etc/modprobe.d/*.conf
echo amdgpu | sudo tee /etc/modules-load.d/amdgpu.conf
