# The Core SDK key written into the .sources file itself (deb822: continuation lines, " ." for
# the empty line), as apt documents for Signed-By.
sudo mkdir -p /etc/apt/keyrings
wget https://repo.radeon.com/rocm/rocm.gpg.key -O - | gpg --dearmor | sudo tee /etc/apt/keyrings/rocm.gpg > /dev/null
echo "deb [arch=amd64 signed-by=/etc/apt/keyrings/rocm.gpg] https://repo.radeon.com/amdgpu/31.60/ubuntu noble main" | sudo tee /etc/apt/sources.list.d/amdgpu.list
{ printf 'Types: deb\nURIs: https://stable.repo.amd.com/rocm/core/packages/ubuntu2404/\nSuites: stable\nComponents: main\nSigned-By:\n'; wget -qO- https://stable.repo.amd.com/rocm/gpg/packages.gpg | sed 's/^$/./; s/^/ /'; } | sudo tee /etc/apt/sources.list.d/amdrocm-stable.sources
sudo apt update
sudo apt install -y amdgpu-dkms amdrocm10.1-gfx942
sudo usermod -a -G render,video $LOGNAME
sudo modprobe amdgpu
exit
amd-smi version
rocminfo
