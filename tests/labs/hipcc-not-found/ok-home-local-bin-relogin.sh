mkdir -p ~/.local/bin
ln -s /opt/rocm/bin/hipcc ~/.local/bin/hipcc
exit
hipcc --version
