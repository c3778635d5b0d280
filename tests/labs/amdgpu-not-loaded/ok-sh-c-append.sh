sudo sh -c 'echo amdgpu >> /etc/modules'
sudo modprobe amdgpu && amd-smi list
