# expect: legacy: still has the legacy ROCm repository
sudo apt autoremove -y rocm
wget https://stable.repo.amd.com/rocm/gpg/packages.gpg -O - | gpg --dearmor | sudo tee /etc/apt/keyrings/amdrocm.gpg > /dev/null
printf 'Types: deb\nURIs: https://stable.repo.amd.com/rocm/core/packages/ubuntu2204/\nSuites: stable\nComponents: main\nSigned-By: /etc/apt/keyrings/amdrocm.gpg\n' | sudo tee /etc/apt/sources.list.d/amdrocm-stable.sources
sudo apt update
sudo apt install -y amdrocm10.1-gfx942
sed -i '/rocm-7.2.0/d' ~/.bashrc
sed -i 's/^rocm-smi --showproductname/amd-smi static/; /^rocm-smi --showmeminfo/d' ~/gpu-report.sh
exit
amd-smi version
