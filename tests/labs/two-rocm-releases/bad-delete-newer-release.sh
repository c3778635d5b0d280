# expect: default: /opt/rocm-6.3.2 was removed, but other users of this machine still need ROCm 6.3.2
sudo rm -rf /opt/rocm-6.3.2
sudo update-alternatives --auto rocm
sed -i '/rocm-6.3.2/d' ~/.bashrc
