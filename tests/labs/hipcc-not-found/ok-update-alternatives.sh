sudo update-alternatives --install /usr/bin/hipcc hipcc /opt/rocm/bin/hipcc 100
hipcc --version
