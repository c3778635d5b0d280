hipcc --version
printf '1\n' | sudo update-alternatives --config rocm
sed -i '/rocm-6.3.2/d' ~/.bashrc
exit
hipcc --version
