sudo ln -sfn /opt/rocm-6.2.2 /etc/alternatives/rocm
sudo update-alternatives --set rocm /opt/rocm-6.2.2
sed -i '/rocm-6.3.2/d' ~/.bashrc
exit
hipcc --version
