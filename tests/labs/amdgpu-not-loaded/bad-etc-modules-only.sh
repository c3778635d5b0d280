# expect: persisted: /etc/modprobe.d/blacklist-amdgpu.conf blacklists amdgpu
echo amdgpu | sudo tee -a /etc/modules
sudo modprobe amdgpu
