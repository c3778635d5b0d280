# variant: dkms
sudo apt install -y linux-headers-$(uname -r)
sudo reboot
