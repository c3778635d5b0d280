# expect: next-login: A new login would not find hipcc
echo 'export PATH=$PATH:/opt/rocm/bin' | sudo tee -a /root/.bashrc
export PATH=$PATH:/opt/rocm/bin
