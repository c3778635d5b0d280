# variant: nomodeset
sudo dmesg | head -5
grep CMDLINE /etc/default/grub
sudo sed -i 's/ nomodeset//' /etc/default/grub
sudo update-grub
