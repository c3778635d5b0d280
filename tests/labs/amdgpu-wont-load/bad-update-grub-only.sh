# expect: boot: would still carry nomodeset
# variant: nomodeset
sudo update-grub
