# expect: system: Not installed yet: rocm, rocm-core
sudo apt autoremove -y rocm
sudo apt autoremove -y rocm-core
rocm install sdk --version 10.1.0 --family gfx942 --devel --yes
echo 'export PATH="$HOME/.rocm/runtimes/wheel/release-wheel-gfx942-10-1-0-devel/bin:$HOME/.rocm/runtimes/wheel/release-wheel-gfx942-10-1-0-devel/lib/python3.12/site-packages/_rocm_sdk_devel/bin:$PATH"' >> ~/.bashrc
exit
rocm-sdk version
