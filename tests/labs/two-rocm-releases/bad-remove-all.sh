# expect: default: The rocm alternative is gone
sudo update-alternatives --remove-all rocm
sudo ln -s /opt/rocm-6.2.2 /opt/rocm
sed -i '/rocm-6.3.2/d' ~/.bashrc
