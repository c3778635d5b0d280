# The system part from a root shell; the user's files as the user.
sudo -i
apt autoremove -y rocm
rm /etc/apt/sources.list.d/rocm.list
apt update
wget -qO- https://stable.repo.amd.com/rocm/gpg/packages.gpg | gpg --dearmor > /etc/apt/keyrings/amdrocm.gpg
cat > /etc/apt/sources.list.d/amdrocm-stable.sources << 'EOF2'
Types: deb
URIs: https://stable.repo.amd.com/rocm/core/packages/ubuntu2204/
Suites: stable
Components: main
Signed-By: /etc/apt/keyrings/amdrocm.gpg
EOF2
apt update
apt install -y amdrocm10.1-gfx942
exit
sed -i '/rocm-7.2.0/d' ~/.bashrc
sed -i 's/^rocm-smi --showproductname/amd-smi static/; /^rocm-smi --showmeminfo/d' ~/gpu-report.sh
exit
amd-smi version
hipcc --version
