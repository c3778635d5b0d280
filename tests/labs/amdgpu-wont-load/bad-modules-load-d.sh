# expect: boot: a blacklist forbids it
# variant: blacklist
echo amdgpu | sudo tee /etc/modules-load.d/amdgpu.conf
