. /etc/os-release
sudo apt-get install -y linux-headers-$(uname -r)
wget -qO- https://repo.radeon.com/rocm/rocm.gpg.key | gpg --dearmor | sudo tee /etc/apt/keyrings/rocm.gpg > /dev/null
echo "deb [arch=amd64 signed-by=/etc/apt/keyrings/rocm.gpg] https://repo.radeon.com/amdgpu/6.3.2/ubuntu $VERSION_CODENAME main" | sudo tee /etc/apt/sources.list.d/amdgpu.list
echo "deb [arch=amd64 signed-by=/etc/apt/keyrings/rocm.gpg] https://repo.radeon.com/rocm/apt/6.3.2 $VERSION_CODENAME main" | sudo tee /etc/apt/sources.list.d/rocm.list
sudo apt-get update
sudo apt-get install -y amdgpu-dkms rocm
sudo usermod -aG render,video learner
echo 'export PATH=$PATH:/opt/rocm/bin' >> ~/.bashrc
sudo modprobe amdgpu
exit
rocminfo
