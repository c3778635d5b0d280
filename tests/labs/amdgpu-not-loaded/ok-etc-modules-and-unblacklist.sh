echo amdgpu | sudo tee -a /etc/modules
sudo rm /etc/modprobe.d/blacklist-amdgpu.conf
sudo modprobe amdgpu
