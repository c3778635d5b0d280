mkdir -p ~/bin
ln -s /opt/rocm/bin/hipcc ~/bin/hipcc
logout
hipcc --version
