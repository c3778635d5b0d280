sudo sed -i 's/^blacklist amdgpu/# &/' /etc/modprobe.d/blacklist-amdgpu.conf
sudo modprobe amdgpu
rocminfo
