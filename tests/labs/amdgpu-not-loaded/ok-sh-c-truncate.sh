sudo sh -c ': > /etc/modprobe.d/blacklist-amdgpu.conf'
sudo modprobe amdgpu
