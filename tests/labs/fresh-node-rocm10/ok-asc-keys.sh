# Both keys kept armored as .asc files, which apt reads as they are.
sudo mkdir -p /etc/apt/keyrings
wget -qO- https://repo.radeon.com/rocm/rocm.gpg.key | sudo tee /etc/apt/keyrings/rocm.asc > /dev/null
wget -qO- https://stable.repo.amd.com/rocm/gpg/packages.gpg | sudo tee /etc/apt/keyrings/amdrocm.asc > /dev/null
echo "deb [signed-by=/etc/apt/keyrings/rocm.asc] https://repo.radeon.com/amdgpu/31.60/ubuntu noble main" | sudo tee /etc/apt/sources.list.d/amdgpu.list
sudo tee /etc/apt/sources.list.d/amdrocm-stable.sources << 'EOF2'
Types: deb
URIs: https://stable.repo.amd.com/rocm/core/packages/ubuntu2404/
Suites: stable
Components: main
Signed-By: /etc/apt/keyrings/amdrocm.asc
EOF2
sudo apt update
sudo apt install -y amdgpu-dkms amdrocm10.1
sudo usermod -a -G video,render learner
sudo modprobe amdgpu
exit
rocminfo
