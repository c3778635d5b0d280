# expect: default: still in auto mode: the next ROCm update moves it back to /opt/rocm-6.3.2
sudo update-alternatives --remove rocm /opt/rocm-6.3.2
sed -i '/rocm-6.3.2/d' ~/.bashrc
