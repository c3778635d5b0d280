# variant: dkms
# Ubuntu's own amdgpu for the running kernel also brings a driver up at the next boot.
sudo apt install -y linux-modules-extra-$(uname -r)
