# variant: blacklist
sudo dmesg | grep -i -e amdgpu -e drm
grep -r amdgpu /etc/modprobe.d
sudo rm /etc/modprobe.d/blacklist-amdgpu.conf
