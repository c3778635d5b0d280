grep VERSION_CODENAME /etc/os-release
sudo apt-get install -y linux-headers-$(uname -r)
wget https://repo.radeon.com/amdgpu-install/6.2.2/ubuntu/jammy/amdgpu-install_6.2.60202-1_all.deb
sudo apt install ./amdgpu-install_6.2.60202-1_all.deb
sudo apt update
amdgpu-install --usecase=rocm
y
sudo usermod -aG render,video learner
echo 'export PATH=$PATH:/opt/rocm/bin' >> ~/.bashrc
sudo modprobe amdgpu
logout
dkms status
rocminfo
