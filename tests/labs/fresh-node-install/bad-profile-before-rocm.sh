# expect: path: hipcc is not installed on this machine yet, so no PATH can find it
# The PATH is right for later; ROCm itself was never installed.
sudo apt install -y "linux-headers-$(uname -r)"
echo 'export PATH=$PATH:/opt/rocm/bin' | sudo tee /etc/profile.d/rocm.sh
sudo usermod -aG render,video learner
exit
