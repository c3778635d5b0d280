rocm-smi
lspci | grep -i 'vga\|display\|3d\|accel'
lsmod | grep amdgpu
sudo modprobe amdgpu
lsmod | grep amdgpu
echo amdgpu | sudo tee /etc/modules-load.d/amdgpu.conf
rocm-smi
