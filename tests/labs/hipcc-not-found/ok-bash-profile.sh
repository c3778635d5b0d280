echo 'export PATH=$PATH:/opt/rocm/bin' > ~/.bash_profile
export PATH=$PATH:/opt/rocm/bin
