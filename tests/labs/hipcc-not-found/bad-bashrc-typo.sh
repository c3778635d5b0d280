# expect: next-login: A new login would not find hipcc
echo 'export PATH=$PATH:/opt/rocm/bin' >> ~/.bash_rc
export PATH=$PATH:/opt/rocm/bin
