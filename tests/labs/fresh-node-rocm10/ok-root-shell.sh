# Everything from a root shell (sudo -i), then back as learner.
sudo -i
mkdir -p /etc/apt/keyrings
wget -q -O - https://repo.radeon.com/rocm/rocm.gpg.key | gpg --dearmor > /etc/apt/keyrings/rocm.gpg
wget -q -O - https://stable.repo.amd.com/rocm/gpg/packages.gpg | gpg --dearmor > /etc/apt/keyrings/amdrocm.gpg
echo "deb [arch=amd64 signed-by=/etc/apt/keyrings/rocm.gpg] https://repo.radeon.com/amdgpu/31.60/ubuntu noble main" > /etc/apt/sources.list.d/amdgpu.list
cat > /etc/apt/sources.list.d/amdrocm-stable.sources << 'EOF2'
Types: deb
URIs: https://stable.repo.amd.com/rocm/core/packages/ubuntu2404/
Suites: stable
Components: main
Architectures: amd64
Signed-By: /etc/apt/keyrings/amdrocm.gpg
EOF2
apt update
apt install -y amdgpu-dkms amdrocm10.1-gfx942
usermod -a -G render,video learner
modprobe amdgpu
exit
exit
amd-smi version
