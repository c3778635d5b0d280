# variant: nomodeset
sudo rm -f /etc/modprobe.d/blacklist-amdgpu.conf
sudo sed -i 's/nomodeset//' /etc/default/grub
sudo update-grub
