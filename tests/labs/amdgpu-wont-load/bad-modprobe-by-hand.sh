# expect: boot: a blacklist forbids it
# variant: blacklist
sudo modprobe amdgpu
lsmod | grep amdgpu
