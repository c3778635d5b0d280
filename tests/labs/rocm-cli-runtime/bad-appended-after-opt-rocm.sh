# expect: login: A new login still runs the system ROCm's hipcc
rocm install sdk --version 10.1.0 --family gfx942 --devel --yes
echo 'export PATH="$PATH:$HOME/.rocm/runtimes/wheel/release-wheel-gfx942-10-1-0-devel/lib/python3.12/site-packages/_rocm_sdk_devel/bin:$HOME/.rocm/runtimes/wheel/release-wheel-gfx942-10-1-0-devel/bin"' >> ~/.bashrc
exit
rocm-sdk version
