# expect: report: does not run amd-smi yet
# The rocm-smi lines turned into echoes that name amd-smi: the report calls nothing.
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
sed -i 's/^rocm-smi .*/echo "see: amd-smi static"/' ~/gpu-report.sh
exit
sh ~/gpu-report.sh
