sudo dmesg | grep -i amdgpu
journalctl -b | grep -i amdgpu
grep -rn amdgpu /etc/modprobe.d /etc/modules /etc/modules-load.d
sudo rm -f /etc/modprobe.d/blacklist-amdgpu.conf
sudo modprobe amdgpu && rocminfo
