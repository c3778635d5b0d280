# expect: persisted: /etc/modprobe.d/blacklist-amdgpu.conf blacklists amdgpu
sudo -u learner rm -f /etc/modprobe.d/blacklist-amdgpu.conf
sudo -u learner sed -i "s/^blacklist amdgpu/# &/" /etc/modprobe.d/blacklist-amdgpu.conf
echo amdgpu | sudo -u learner tee -a /etc/modules
sudo modprobe amdgpu
