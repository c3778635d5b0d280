# expect: repo: does not exist on repo.radeon.com
sudo apt install "linux-headers-$(uname -r)"
wget https://repo.radeon.com/rocm/rocm.gpg.key -O - | gpg --dearmor | sudo tee /etc/apt/keyrings/rocm.gpg > /dev/null
echo "deb [arch=amd64 signed-by=/etc/apt/keyrings/rocm.gpg] https://repo.radeon.com/rocm/apt/6.2.9 jammy main" | sudo tee /etc/apt/sources.list.d/rocm.list
sudo apt update
