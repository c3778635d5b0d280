# expect: persisted: modprobe.blacklist=amdgpu
sudo modprobe amdgpu
sudo rm /etc/modprobe.d/blacklist-amdgpu.conf
sudo sed -i 's/^GRUB_CMDLINE_LINUX=""/GRUB_CMDLINE_LINUX="modprobe.blacklist=amdgpu"/' /etc/default/grub
sudo update-grub
