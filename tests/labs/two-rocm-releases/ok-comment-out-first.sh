type -a hipcc
grep -n rocm ~/.bashrc ~/.profile /etc/profile.d/*.sh
sed -i 's|^export PATH=/opt/rocm-6.3.2|# &|' ~/.bashrc
sudo update-alternatives --set rocm /opt/rocm-6.2.2
exit
hipcc --version
