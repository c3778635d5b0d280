rocm install sdk --devel --yes
rocm install sdk --version 10.1.0 --family gfx94X-dcgpu --devel --yes
rocm install sdk --version 10.1.0 --family gfx942 --devel --yes
echo 'export PATH="$PATH:$HOME/.rocm/runtimes/wheel/release-wheel-gfx942-10-1-0-devel/lib/python3.12/site-packages/_rocm_sdk_devel/bin"' >> ~/.bashrc
exit
which hipcc
sed -i '$d' ~/.bashrc
echo 'export PATH="$HOME/.rocm/runtimes/wheel/release-wheel-gfx942-10-1-0-devel/bin:$HOME/.rocm/runtimes/wheel/release-wheel-gfx942-10-1-0-devel/lib/python3.12/site-packages/_rocm_sdk_devel/bin:$PATH"' >> ~/.bashrc
exit
rocm-sdk version
