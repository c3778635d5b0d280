PATH=/opt/rocm-6.2.2/bin:$PATH
which hipcc
echo 'export PATH=/opt/rocm/bin:$PATH' | sudo tee /etc/profile.d/rocm.sh
