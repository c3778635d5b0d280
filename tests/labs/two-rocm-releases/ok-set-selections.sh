update-alternatives --get-selections | grep rocm
echo 'rocm manual /opt/rocm-6.2.2' | sudo update-alternatives --set-selections
grep -v 'rocm-6.3.2' ~/.bashrc > /tmp/bashrc.new && cp /tmp/bashrc.new ~/.bashrc
exit
hipcc --version
