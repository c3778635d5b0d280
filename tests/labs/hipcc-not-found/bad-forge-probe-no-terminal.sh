# expect: next-login: A new login would not find hipcc
echo '[ -t 0 ] || PATH=$PATH:/opt/rocm/bin' >> ~/.bashrc
export PATH=$PATH:/opt/rocm/bin
hipcc --version
