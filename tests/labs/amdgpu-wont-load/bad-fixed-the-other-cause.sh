# expect: boot: a blacklist forbids it
# variant: blacklist
sudo sed -i 's/ nomodeset//' /etc/default/grub
sudo update-grub
