# expect: on-path: hipcc is not on this shell's PATH
alias hipcc=/opt/rocm/bin/hipcc
echo 'alias hipcc=/opt/rocm/bin/hipcc' >> ~/.bashrc
hipcc --version
