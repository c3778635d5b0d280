# One keyring holding both keys, named by both repositories.
sudo mkdir -p /etc/apt/keyrings
wget -qO- https://repo.radeon.com/rocm/rocm.gpg.key | gpg --dearmor > radeon.gpg
wget -qO- https://stable.repo.amd.com/rocm/gpg/packages.gpg | gpg --dearmor > amdrocm.gpg
cat radeon.gpg amdrocm.gpg | sudo tee /etc/apt/keyrings/amd.gpg > /dev/null
echo "deb [arch=amd64 signed-by=/etc/apt/keyrings/amd.gpg] https://repo.radeon.com/amdgpu/31.60/ubuntu noble main" | sudo tee /etc/apt/sources.list.d/amdgpu.list
printf 'Types: deb\nURIs: https://stable.repo.amd.com/rocm/core/packages/ubuntu2404/\nSuites: stable\nComponents: main\nSigned-By: /etc/apt/keyrings/amd.gpg\n' | sudo tee /etc/apt/sources.list.d/amdrocm-stable.sources
sudo apt update
sudo apt install -y amdgpu-dkms amdrocm10.1-gfx942
sudo usermod -a -G render,video $LOGNAME
sudo modprobe amdgpu
exit
amd-smi version
rocminfo
