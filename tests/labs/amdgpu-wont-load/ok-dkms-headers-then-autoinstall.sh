# variant: dkms
# The headers' hook builds already; autoinstall afterwards finds nothing left to do.
sudo apt-get install -y linux-headers-$(uname -r)
sudo dkms autoinstall
sudo modprobe amdgpu && lsmod | grep ^amdgpu
