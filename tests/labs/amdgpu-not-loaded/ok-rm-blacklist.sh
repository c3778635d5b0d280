lspci -d 1002:
lsmod | grep amdgpu
sudo modprobe amdgpu
grep -r amdgpu /etc/modprobe.d
sudo rm /etc/modprobe.d/blacklist-amdgpu.conf
rocm-smi
