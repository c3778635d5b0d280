# expect: on-path: PATH no longer contains /usr/bin, /bin
export PATH=/opt/rocm/bin
hipcc --version
ls
