# expect: default: /opt/rocm leads to /opt/rocm-6.3.2
export PATH=/opt/rocm-6.2.2/bin:$PATH
hipcc --version
