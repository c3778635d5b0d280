# expect: boot: would still have no amdgpu module
# variant: dkms
sudo modprobe amdgpu
sudo modprobe -f amdgpu
