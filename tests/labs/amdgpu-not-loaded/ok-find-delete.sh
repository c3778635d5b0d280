sudo find /etc/modprobe.d -name '*amdgpu*' -delete
sudo modprobe amdgpu
