# expect: default: the next ROCm update moves it back to /opt/rocm-6.3.2
sudo update-alternatives --install /opt/rocm rocm /opt/rocm-6.2.2 700000000
sed -i '/rocm-6.3.2/d' ~/.bashrc
