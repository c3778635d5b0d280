# expect: on-path: hipcc is not on this shell's PATH
bash -c 'export PATH=$PATH:/opt/rocm/bin; hipcc --version'
