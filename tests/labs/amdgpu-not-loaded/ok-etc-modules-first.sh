echo amdgpu | sudo tee -a /etc/modules
sudo modprobe -v amdgpu
rocminfo
