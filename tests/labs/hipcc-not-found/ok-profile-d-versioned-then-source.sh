echo 'export PATH=$PATH:/opt/rocm-6.2.2/bin' | sudo tee /etc/profile.d/rocm.sh
. /etc/profile.d/rocm.sh
hipcc --version
