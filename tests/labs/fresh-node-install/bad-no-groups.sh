# expect: groups: /etc/group does not list learner in render, video
sudo apt install -y "linux-headers-$(uname -r)"
wget -q https://repo.radeon.com/amdgpu-install/6.2.2/ubuntu/jammy/amdgpu-install_6.2.60202-1_all.deb
sudo apt install -y ./amdgpu-install_6.2.60202-1_all.deb
sudo apt update
amdgpu-install -y --usecase=rocm
echo 'export PATH=$PATH:/opt/rocm/bin' >> ~/.bashrc
sudo modprobe amdgpu
