# variant: dkms
sudo modprobe amdgpu
uname -r
dkms status
sudo apt install -y linux-headers-$(uname -r)
dkms status
