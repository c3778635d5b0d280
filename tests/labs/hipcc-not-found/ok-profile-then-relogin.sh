echo 'PATH="$PATH:/opt/rocm/bin"' >> ~/.profile
exit
hipcc --version
