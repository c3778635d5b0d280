sed -i 's#/opt/rocm-6.3.2/bin#/opt/rocm/bin#' ~/.bashrc
sudo update-alternatives --set rocm /opt/rocm-6.2.2
exit
hipcc --version
