# expect: sdk-repo: has no Component line
# A deb822 stanza without Components: apt calls it malformed and reads no source.
sudo mkdir -p /etc/apt/keyrings
wget https://repo.radeon.com/rocm/rocm.gpg.key -O - | gpg --dearmor | sudo tee /etc/apt/keyrings/rocm.gpg > /dev/null
echo "deb [arch=amd64 signed-by=/etc/apt/keyrings/rocm.gpg] https://repo.radeon.com/amdgpu/31.60/ubuntu noble main" | sudo tee /etc/apt/sources.list.d/amdgpu.list
wget https://stable.repo.amd.com/rocm/gpg/packages.gpg -O - | gpg --dearmor | sudo tee /etc/apt/keyrings/amdrocm.gpg > /dev/null
printf 'Types: deb\nURIs: https://stable.repo.amd.com/rocm/core/packages/ubuntu2404/\nSuites: stable\nSigned-By: /etc/apt/keyrings/amdrocm.gpg\n' | sudo tee /etc/apt/sources.list.d/amdrocm-stable.sources
sudo apt update
sudo apt install -y amdgpu-dkms amdrocm10.1-gfx942
sudo usermod -a -G render,video $LOGNAME
sudo modprobe amdgpu
exit
amd-smi version
rocminfo
