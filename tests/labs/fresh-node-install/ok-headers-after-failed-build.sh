# The driver first, the headers after: the build fails, the headers' own hook builds it, and
# apt finishes the half-configured amdgpu-dkms on the same run.
wget https://repo.radeon.com/amdgpu-install/6.2.2/ubuntu/jammy/amdgpu-install_6.2.60202-1_all.deb
sudo apt install -y ./amdgpu-install_6.2.60202-1_all.deb
sudo apt update
sudo amdgpu-install -y --usecase=rocm
dkms status
dpkg -l amdgpu-dkms
sudo apt install -y "linux-headers-$(uname -r)"
dkms status
sudo usermod -aG render,video learner
echo 'export PATH=$PATH:/opt/rocm/bin' | sudo tee /etc/profile.d/rocm.sh
sudo modprobe amdgpu
exit
rocminfo
