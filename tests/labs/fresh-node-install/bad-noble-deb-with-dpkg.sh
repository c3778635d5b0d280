# expect: matrix: the amdgpu-install .deb was built for noble
sudo apt install -y linux-headers-generic
curl -fsSLO https://repo.radeon.com/amdgpu-install/6.2.2/ubuntu/noble/amdgpu-install_6.2.60202-1_all.deb
sudo dpkg -i amdgpu-install_6.2.60202-1_all.deb
sudo apt update
