# expect: login: an earlier PATH entry names that release directly
sudo update-alternatives --set rocm /opt/rocm-6.2.2
exit
hipcc --version
