export PATH=$PATH:/opt/rocm/bin/
echo 'export PATH=$PATH:/opt/rocm/bin/' >> ~/.bashrc
hipcc --version
