# expect: default: /opt/rocm leads to /opt/rocm-6.3.2
sudo ln -sf /opt/rocm-6.2.2 /opt/rocm
sed -i '/rocm-6.3.2/d' ~/.bashrc
