# expect: matrix: the amdgpu-install .deb was built for noble
sudo apt install -y "linux-headers-$(uname -r)"
wget https://repo.radeon.com/amdgpu-install/6.2.2/ubuntu/noble/amdgpu-install_6.2.60202-1_all.deb
sudo apt install -y ./amdgpu-install_6.2.60202-1_all.deb
