# expect: repo: this lab's offline mirror carries only
sudo apt install -y "linux-headers-$(uname -r)"
wget -qO- https://repo.radeon.com/rocm/rocm.gpg.key | gpg --dearmor | sudo tee /etc/apt/keyrings/rocm.gpg > /dev/null
echo "deb [arch=amd64 signed-by=/etc/apt/keyrings/rocm.gpg] https://repo.radeon.com/rocm/apt/6.1.3 jammy main" | sudo tee /etc/apt/sources.list.d/rocm.list
sudo apt update
