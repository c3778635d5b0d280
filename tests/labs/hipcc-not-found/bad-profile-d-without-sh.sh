# expect: next-login: A new login would not find hipcc
echo 'export PATH=$PATH:/opt/rocm/bin' | sudo tee /etc/profile.d/rocm
export PATH=$PATH:/opt/rocm/bin
