# needs: root (a /usr root may change: a lab started by root)
sudo ln -s /opt/rocm/bin/hipcc /usr/bin/hipcc
hipcc --version
