# expect: loaded: The amdgpu kernel module is not loaded
sudo modprobe amdgpu
echo amdgpu | sudo tee /etc/modules-load.d/amdgpu.conf
sudo reboot
