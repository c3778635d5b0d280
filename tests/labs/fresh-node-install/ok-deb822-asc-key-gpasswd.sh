. /etc/os-release && echo "$VERSION_CODENAME"
sudo apt-get install -y linux-headers-5.15.0-125-generic
sudo wget -q https://repo.radeon.com/rocm/rocm.gpg.key -O /etc/apt/keyrings/rocm.asc
printf '%s\n' 'Types: deb' 'URIs: https://repo.radeon.com/amdgpu/6.3.2/ubuntu' 'Suites: jammy' 'Components: main' 'Architectures: amd64' 'Signed-By: /etc/apt/keyrings/rocm.asc' '' 'Types: deb' 'URIs: https://repo.radeon.com/rocm/apt/6.3.2' 'Suites: jammy' 'Components: main' 'Architectures: amd64' 'Signed-By: /etc/apt/keyrings/rocm.asc' | sudo tee /etc/apt/sources.list.d/rocm.sources
sudo apt-get update
sudo apt-get install -y amdgpu-dkms rocm
sudo gpasswd -a learner render
sudo gpasswd -a learner video
echo 'PATH="/opt/rocm/bin:$PATH"' >> ~/.profile
sudo modprobe -v amdgpu
newgrp render
/opt/rocm/bin/rocminfo
