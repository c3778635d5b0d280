ls /opt
export PATH=$PATH:/opt/rocm/bin
hipcc --version
echo 'export PATH=$PATH:/opt/rocm/bin' >> ~/.bashrc
