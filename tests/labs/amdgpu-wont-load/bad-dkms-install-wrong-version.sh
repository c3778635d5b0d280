# expect: boot: would still have no amdgpu module
# variant: dkms
# A version DKMS does not hold: its source directory does not exist.
sudo apt install -y linux-headers-6.8.0-51-generic
sudo dkms install amdgpu/6.10.5 -k $(uname -r)
