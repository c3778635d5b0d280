sudo ln -s /opt/rocm/bin/hipcc /usr/bin/hipcc
hipcc --version
