# expect: persisted: /etc/modprobe.d/blacklist-amdgpu.conf blacklists amdgpu
sudo modprobe amdgpu
echo amdgpu | sudo tee /etc/modules-load.d/amdgpu.conf
