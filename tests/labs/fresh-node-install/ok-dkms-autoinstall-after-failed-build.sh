# A failed build mended by hand: headers, dkms autoinstall, then dpkg finishes the package.
wget https://repo.radeon.com/amdgpu-install/6.2.2/ubuntu/jammy/amdgpu-install_6.2.60202-1_all.deb
sudo apt install -y ./amdgpu-install_6.2.60202-1_all.deb
sudo apt update
sudo amdgpu-install -y --usecase=rocm
sudo apt-get install -y linux-headers-generic "linux-headers-$(uname -r)"
sudo dkms autoinstall
sudo dpkg --configure -a
dkms status
sudo usermod -aG render,video learner
echo 'export PATH=$PATH:/opt/rocm/bin' | sudo tee /etc/profile.d/rocm.sh
sudo modprobe amdgpu
exit
rocminfo
