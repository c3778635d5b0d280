sudo update-alternatives --config rocm
1
sed -i '/rocm-6.3.2/d' ~/.bashrc
exit
hipcc --version
