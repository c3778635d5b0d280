# expect: on-path: hipcc is not on this shell's PATH
export PATH=$PATH:/opt/rocm-6.1.3/bin
echo 'export PATH=$PATH:/opt/rocm-6.1.3/bin' >> ~/.bashrc
