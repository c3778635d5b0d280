# The unversioned meta package: the newest Core SDK the repository has.
sudo mkdir --parents --mode=0755 /etc/apt/keyrings
wget https://repo.radeon.com/rocm/rocm.gpg.key -O - | gpg --dearmor | sudo tee /etc/apt/keyrings/rocm.gpg > /dev/null
wget https://stable.repo.amd.com/rocm/gpg/packages.gpg -O - | gpg --dearmor | sudo tee /etc/apt/keyrings/amdrocm.gpg > /dev/null
echo "deb [arch=amd64 signed-by=/etc/apt/keyrings/rocm.gpg] https://repo.radeon.com/amdgpu/31.60/ubuntu noble main" | sudo tee /etc/apt/sources.list.d/amdgpu.list
sudo tee /etc/apt/sources.list.d/amdrocm-stable.sources > /dev/null << 'EOF2'
Types: deb
URIs: https://stable.repo.amd.com/rocm/core/packages/ubuntu2404/
Suites: stable
Components: main
Architectures: amd64
Signed-By: /etc/apt/keyrings/amdrocm.gpg
EOF2
sudo apt update
sudo apt install amdgpu-dkms amdrocm
Y
sudo usermod -a -G render,video $LOGNAME
sudo modprobe amdgpu
exit
amd-smi version
rocminfo
