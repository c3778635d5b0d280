echo 'PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/opt/rocm/bin"' | sudo tee /etc/environment
export PATH=$PATH:/opt/rocm/bin
