# expect: on-path: hipcc is not on this shell's PATH
ln -s /opt/rocm/bin/hipcc /usr/bin/hipcc
hipcc --version
