# expect: default: /opt/rocm leads to /opt/rocm-6.3.2, not to /opt/rocm-6.2.2
sed -i 's#/opt/rocm-6.3.2/bin#/opt/rocm-6.2.2/bin#' ~/.bashrc
exit
hipcc --version
