# expect: boot: would still have no amdgpu module
# variant: dkms
# Without the running kernel's headers there is nothing to build against.
sudo dkms autoinstall
