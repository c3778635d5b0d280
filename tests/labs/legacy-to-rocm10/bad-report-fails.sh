# expect: report: fails with exit status 2
# amd-smi called with a subcommand it does not have: the report now fails.
sudo apt autoremove -y rocm
sudo apt autoremove -y rocm-core
sudo rm /etc/apt/sources.list.d/rocm.list
sudo rm -rf /var/cache/apt/*
sudo apt-get clean all
sudo apt update
wget https://stable.repo.amd.com/rocm/gpg/packages.gpg -O - | gpg --dearmor | sudo tee /etc/apt/keyrings/amdrocm.gpg > /dev/null
printf 'Types: deb\nURIs: https://stable.repo.amd.com/rocm/core/packages/ubuntu2204/\nSuites: stable\nComponents: main\nArchitectures: amd64\nSigned-By: /etc/apt/keyrings/amdrocm.gpg\n' | sudo tee /etc/apt/sources.list.d/amdrocm-stable.sources
sudo apt update
sudo apt install -y amdrocm10.1-gfx942
sed -i '/rocm-7.2.0/d' ~/.bashrc
sed -i 's/^rocm-smi --showproductname/amd-smi static --productname/; /^rocm-smi/d' ~/gpu-report.sh
exit
sh ~/gpu-report.sh
