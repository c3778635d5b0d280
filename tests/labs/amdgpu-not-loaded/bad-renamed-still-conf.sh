# expect: persisted: /etc/modprobe.d/old-blacklist-amdgpu.conf blacklists amdgpu
sudo mv /etc/modprobe.d/blacklist-amdgpu.conf /etc/modprobe.d/old-blacklist-amdgpu.conf
sudo modprobe amdgpu
