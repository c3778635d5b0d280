# gpg --dearmor FILE writes FILE.gpg beside it.
sudo mkdir -p /etc/apt/keyrings
wget https://repo.radeon.com/rocm/rocm.gpg.key
gpg --dearmor rocm.gpg.key
sudo cp rocm.gpg.key.gpg /etc/apt/keyrings/rocm.gpg
wget -O amdrocm.asc https://stable.repo.amd.com/rocm/gpg/packages.gpg
gpg --dearmor amdrocm.asc
sudo mv amdrocm.asc.gpg /etc/apt/keyrings/amdrocm.gpg
echo "deb [arch=amd64 signed-by=/etc/apt/keyrings/rocm.gpg] https://repo.radeon.com/amdgpu/31.60/ubuntu noble main" | sudo tee /etc/apt/sources.list.d/amdgpu.list
printf 'Types: deb\nURIs: https://stable.repo.amd.com/rocm/core/packages/ubuntu2404/\nSuites: stable\nComponents: main\nSigned-By: /etc/apt/keyrings/amdrocm.gpg\n' | sudo tee /etc/apt/sources.list.d/amdrocm-stable.sources
sudo apt update
sudo apt install -y amdgpu-dkms amdrocm10.1-gfx942
sudo usermod -a -G render,video $LOGNAME
sudo modprobe amdgpu
exit
amd-smi version
rocminfo
