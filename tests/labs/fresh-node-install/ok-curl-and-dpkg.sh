sudo apt-get install -y linux-headers-generic
curl -fsSLO https://repo.radeon.com/amdgpu-install/6.2.2/ubuntu/jammy/amdgpu-install_6.2.60202-1_all.deb
sudo dpkg -i amdgpu-install_6.2.60202-1_all.deb
sudo apt-get update
amdgpu-install -y --usecase=dkms,rocm
sudo usermod -aG render,video learner
echo 'export PATH=$PATH:/opt/rocm/bin' | sudo tee /etc/profile.d/rocm.sh
sudo modprobe amdgpu
exit
rocminfo
