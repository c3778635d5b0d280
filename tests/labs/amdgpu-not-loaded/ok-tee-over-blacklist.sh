echo '# amdgpu is allowed again' | sudo tee /etc/modprobe.d/blacklist-amdgpu.conf
sudo modprobe amdgpu
