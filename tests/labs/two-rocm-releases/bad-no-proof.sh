# expect: login: prove it from your own login: run hipcc --version
sudo update-alternatives --set rocm /opt/rocm-6.2.2
sed -i '/rocm-6.3.2/d' ~/.bashrc
