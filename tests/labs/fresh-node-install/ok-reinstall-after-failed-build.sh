# The hint's way: after the headers, the same driver package installed again.
wget https://repo.radeon.com/amdgpu-install/6.2.2/ubuntu/jammy/amdgpu-install_6.2.60202-1_all.deb
sudo apt install -y ./amdgpu-install_6.2.60202-1_all.deb
sudo apt update
sudo amdgpu-install -y --usecase=rocm
sudo apt install -y "linux-headers-$(uname -r)"
sudo apt install -y --reinstall amdgpu-dkms
sudo usermod -aG render,video learner
echo 'export PATH=$PATH:/opt/rocm/bin' | sudo tee /etc/profile.d/rocm.sh
sudo modprobe amdgpu
exit
rocminfo
