# expect: persisted: amdgpu is loaded now but will not be after a reboot
sudo modprobe amdgpu
rocm-smi
