sudo apt install -y linux-headers-generic
curl -fsSL -o /tmp/amdgpu-install.deb https://repo.radeon.com/amdgpu-install/6.2.2/ubuntu/jammy/amdgpu-install_6.2.60202-1_all.deb
sudo apt install -y /tmp/amdgpu-install.deb
sudo apt update
amdgpu-install -y --usecase=rocm
sudo usermod -a -G render,video learner
echo 'export PATH=$PATH:/opt/rocm/bin' >> ~/.bashrc
sudo modprobe amdgpu
exit
rocminfo
