# expect: on-path: hipcc is not on this shell's PATH. It is installed in /opt/rocm-6.2.2/bin
export PATH=$PATH:/opt/rocm
echo 'export PATH=$PATH:/opt/rocm' >> ~/.bashrc
