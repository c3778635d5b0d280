# expect: boot: run sudo update-grub
# variant: nomodeset
sudo sed -i 's/ nomodeset//' /etc/default/grub
