# expect: loaded: The amdgpu kernel module is not loaded
modprobe amdgpu
echo amdgpu | sudo tee /etc/modules-load.d/amdgpu.conf
