sudo bash -c 'sed -i "s/^blacklist amdgpu/#blacklist amdgpu/" /etc/modprobe.d/blacklist-amdgpu.conf && modprobe amdgpu'
rocm-smi
