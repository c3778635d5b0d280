# expect: active: The active runtime is still release-wheel-gfx94x-dcgpu-7-14-1 (ROCm 7.14.1)
rocm install sdk --version 10.1.0 --family gfx942 --devel --yes
rocm runtimes activate release-wheel-gfx94x-dcgpu-7-14-1
echo 'export PATH="$HOME/.rocm/runtimes/wheel/release-wheel-gfx942-10-1-0-devel/bin:$HOME/.rocm/runtimes/wheel/release-wheel-gfx942-10-1-0-devel/lib/python3.12/site-packages/_rocm_sdk_devel/bin:$PATH"' >> ~/.bashrc
exit
rocm-sdk version
