# expect: default: the next ROCm update moves it back to /opt/rocm-6.3.2
sudo ln -sfn /opt/rocm-6.2.2 /etc/alternatives/rocm
sed -i '/rocm-6.3.2/d' ~/.bashrc
