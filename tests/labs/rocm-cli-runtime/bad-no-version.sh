# expect: runtime: The managed runtimes are ROCm 7.14.1, and the team needs 10.1.0
rocm install sdk --devel --yes
echo 'export PATH="$HOME/.rocm/runtimes/wheel/release-wheel-gfx94x-dcgpu-7-14-1-devel/lib/python3.12/site-packages/_rocm_sdk_devel/bin:$PATH"' >> ~/.bashrc
exit
