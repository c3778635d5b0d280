# expect: default: /opt/rocm was replaced by a link of its own (/opt/rocm-6.2.2)
sudo ln -sfn /opt/rocm-6.2.2 /opt/rocm
sed -i '/rocm-6.3.2/d' ~/.bashrc
