# expect: next-login: A new login would not find hipcc
export PATH=$PATH:/opt/rocm/bin
hipcc --version
