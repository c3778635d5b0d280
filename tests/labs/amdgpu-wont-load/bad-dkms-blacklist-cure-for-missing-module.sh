# expect: boot: would still have no amdgpu module
# variant: dkms
# A fix for another cause: nothing blacklists amdgpu here, the module itself is missing.
sudo rm -f /etc/modprobe.d/blacklist-amdgpu.conf
echo amdgpu | sudo tee /etc/modules-load.d/amdgpu.conf
