# expect: next-login: loses everyday commands
export PATH=$PATH:/opt/rocm/bin
echo 'export PATH=/opt/rocm/bin' >> ~/.bashrc
