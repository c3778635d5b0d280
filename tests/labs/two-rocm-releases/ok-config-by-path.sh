echo /opt/rocm-6.2.2 | sudo update-alternatives --config rocm
sed -i 's#/opt/rocm-6.3.2/bin:##' ~/.bashrc
exit
hipcc --version | grep InstalledDir
