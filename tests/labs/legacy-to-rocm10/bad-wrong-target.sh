# expect: sdk: is for gfx950, but this node's GPU is gfx942
# The target of the install page's MI350X example.
sudo apt autoremove -y rocm
sudo rm /etc/apt/sources.list.d/rocm.list
sudo apt update
wget https://stable.repo.amd.com/rocm/gpg/packages.gpg -O - | gpg --dearmor | sudo tee /etc/apt/keyrings/amdrocm.gpg > /dev/null
printf 'Types: deb\nURIs: https://stable.repo.amd.com/rocm/core/packages/ubuntu2204/\nSuites: stable\nComponents: main\nSigned-By: /etc/apt/keyrings/amdrocm.gpg\n' | sudo tee /etc/apt/sources.list.d/amdrocm-stable.sources
sudo apt update
sudo apt install -y amdrocm10.1-gfx950
sed -i '/rocm-7.2.0/d' ~/.bashrc
sed -i 's/^rocm-smi --showproductname/amd-smi static/; /^rocm-smi --showmeminfo/d' ~/gpu-report.sh
exit
amd-smi version
