export PATH=/opt/rocm/bin:/usr/local/bin:/usr/bin
echo 'export PATH=/opt/rocm/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin' >> ~/.bashrc
ls /opt/rocm/bin | grep hipcc
