# expect: boot: would still have no amdgpu module
# variant: dkms
# The headers of the kernel DKMS already built for change nothing for the running one.
dkms status
sudo apt install -y linux-headers-6.8.0-51-generic
sudo dkms autoinstall -k 6.8.0-51-generic
