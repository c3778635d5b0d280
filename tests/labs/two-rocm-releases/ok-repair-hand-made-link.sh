sudo ln -sfn /opt/rocm-6.2.2 /opt/rocm
sudo update-alternatives --set rocm /opt/rocm-6.2.2
ls -l /opt/rocm
sed -i '/rocm-6.3.2/d' ~/.bashrc
exit
hipcc --version
