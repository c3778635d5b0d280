# expect: next-login: A new login would not find hipcc
echo 'case $- in *c*) export PATH=$PATH:/opt/rocm/bin ;; esac' >> ~/.bashrc
echo '[ -n "$BASH_EXECUTION_STRING" ] && export PATH=$PATH:/opt/rocm/bin' >> ~/.profile
export PATH=$PATH:/opt/rocm/bin
hipcc --version
