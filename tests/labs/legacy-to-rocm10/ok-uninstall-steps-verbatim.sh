# AMD's 7.2 uninstall steps as written, then the 10.1 install page's heredoc.
apt list --installed 'rocm*'
sudo apt autoremove rocm
Y
sudo apt autoremove rocm-core
sudo rm /etc/apt/sources.list.d/rocm.list
sudo rm -rf /var/cache/apt/*
sudo apt-get clean all
sudo apt update
sudo mkdir --parents --mode=0755 /etc/apt/keyrings
wget https://stable.repo.amd.com/rocm/gpg/packages.gpg -O - | \
gpg --dearmor | sudo tee /etc/apt/keyrings/amdrocm.gpg > /dev/null
sudo tee /etc/apt/sources.list.d/amdrocm-stable.sources << EOF2
X-Repo-Id: amdrocm-stable
Types: deb
URIs: https://stable.repo.amd.com/rocm/core/packages/ubuntu2204/
Suites: stable
Components: main
Architectures: amd64
Signed-By: /etc/apt/keyrings/amdrocm.gpg
Enabled: yes
EOF2
sudo apt update
sudo apt install amdrocm10.1
Y
sed -i '/rocm-7.2.0/d' ~/.bashrc
sed -i 's/^rocm-smi --showproductname/amd-smi static/; /^rocm-smi --showmeminfo/d' ~/gpu-report.sh
exit
amd-smi version
hipcc --version
