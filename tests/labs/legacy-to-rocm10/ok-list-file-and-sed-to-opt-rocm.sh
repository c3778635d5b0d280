# The Core SDK as a one-line .list; the pinned PATH line turned into /opt/rocm/bin.
sudo apt autoremove -y rocm
sudo apt autoremove -y rocm-core
sudo rm /etc/apt/sources.list.d/rocm.list
sudo rm -rf /var/cache/apt/*
sudo apt-get clean all
sudo apt update
wget https://stable.repo.amd.com/rocm/gpg/packages.gpg -O - | gpg --dearmor | sudo tee /etc/apt/keyrings/amdrocm.gpg > /dev/null
echo "deb [arch=amd64 signed-by=/etc/apt/keyrings/amdrocm.gpg] https://stable.repo.amd.com/rocm/core/packages/ubuntu2204/ stable main" | sudo tee /etc/apt/sources.list.d/amdrocm.list
sudo apt update
sudo apt install -y amdrocm10.1-gfx942
sed -i 's|/opt/rocm-7.2.0/bin|/opt/rocm/bin|' ~/.bashrc
sed -i 's/^rocm-smi --showproductname/amd-smi static/; /^rocm-smi --showmeminfo/d' ~/gpu-report.sh
exit
amd-smi version
hipcc --version
