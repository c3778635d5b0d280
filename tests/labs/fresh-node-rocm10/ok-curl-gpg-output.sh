# curl and gpg -o instead of wget and tee; the driver as a deb822 file too.
sudo mkdir -p /etc/apt/keyrings
curl -fsSL https://repo.radeon.com/rocm/rocm.gpg.key | sudo gpg --dearmor -o /etc/apt/keyrings/rocm.gpg
curl -fsSL https://stable.repo.amd.com/rocm/gpg/packages.gpg | sudo gpg --dearmor -o /etc/apt/keyrings/amdrocm.gpg
printf 'Types: deb\nURIs: https://repo.radeon.com/amdgpu/31.60/ubuntu\nSuites: noble\nComponents: main\nSigned-By: /etc/apt/keyrings/rocm.gpg\n' | sudo tee /etc/apt/sources.list.d/amdgpu.sources
printf 'Types: deb\nURIs: https://stable.repo.amd.com/rocm/core/packages/ubuntu2404/\nSuites: stable\nComponents: main\nArchitectures: amd64\nSigned-By: /etc/apt/keyrings/amdrocm.gpg\n' | sudo tee /etc/apt/sources.list.d/amdrocm-stable.sources
sudo apt update
sudo apt install -y amdgpu-dkms amdrocm10.1-gfx942
sudo usermod -aG render,video learner
sudo modprobe amdgpu
exit
amd-smi version
