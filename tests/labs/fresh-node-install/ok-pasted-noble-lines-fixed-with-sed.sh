sudo apt install -y "linux-headers-$(uname -r)"
wget -qO- https://repo.radeon.com/rocm/rocm.gpg.key | gpg --dearmor | sudo tee /etc/apt/keyrings/rocm.gpg > /dev/null
echo "deb [arch=amd64 signed-by=/etc/apt/keyrings/rocm.gpg] https://repo.radeon.com/amdgpu/6.2.2/ubuntu noble main" | sudo tee /etc/apt/sources.list.d/amdgpu.list
echo "deb [arch=amd64 signed-by=/etc/apt/keyrings/rocm.gpg] https://repo.radeon.com/rocm/apt/6.2.2 noble main" | sudo tee /etc/apt/sources.list.d/rocm.list
sudo sed -i 's/ noble / jammy /' /etc/apt/sources.list.d/amdgpu.list /etc/apt/sources.list.d/rocm.list
sudo apt update
sudo apt install -y amdgpu-dkms rocm
sudo gpasswd -a learner render && sudo gpasswd -a learner video
echo 'export PATH=$PATH:/opt/rocm/bin' | sudo tee /etc/profile.d/rocm.sh
sudo modprobe amdgpu
logout
rocminfo
