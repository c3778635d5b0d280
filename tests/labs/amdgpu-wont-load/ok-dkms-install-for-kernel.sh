# variant: dkms
# The same build, named by module and version, for the kernel that runs.
sudo apt install -y linux-headers-generic
ver=$(dkms status | head -1 | cut -d, -f1 | cut -d/ -f2)
sudo dkms install amdgpu/$ver -k $(uname -r)
dkms status
