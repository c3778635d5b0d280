# expect: default: /opt/rocm leads to /opt/rocm-6.3.2, not to /opt/rocm-6.2.2
update-alternatives --display rocm
hipcc --version
