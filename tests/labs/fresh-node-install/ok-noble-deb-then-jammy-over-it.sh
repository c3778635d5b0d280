sudo apt install -y "linux-headers-$(uname -r)"
wget -q https://repo.radeon.com/amdgpu-install/6.2.2/ubuntu/noble/amdgpu-install_6.2.60202-1_all.deb
sudo apt install -y ./amdgpu-install_6.2.60202-1_all.deb
grep -h ^deb /etc/apt/sources.list.d/*.list
mkdir jammy && cd jammy && wget -q https://repo.radeon.com/amdgpu-install/6.2.2/ubuntu/jammy/amdgpu-install_6.2.60202-1_all.deb
sudo dpkg -i ./amdgpu-install_6.2.60202-1_all.deb
cd
sudo apt update
sudo apt install -y amdgpu-dkms rocm
sudo usermod -aG render,video learner
echo 'export PATH=$PATH:/opt/rocm/bin' >> ~/.bashrc
sudo modprobe amdgpu
exit
rocminfo
