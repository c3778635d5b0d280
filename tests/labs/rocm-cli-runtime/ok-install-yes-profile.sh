rocm install sdk --yes --devel --family gfx942 --version 10.1.0
printf '%s\n' 'PATH="$HOME/.rocm/runtimes/wheel/release-wheel-gfx942-10-1-0-devel/lib/python3.12/site-packages/_rocm_sdk_devel/bin:$PATH"' 'PATH="$HOME/.rocm/runtimes/wheel/release-wheel-gfx942-10-1-0-devel/bin:$PATH"' >> ~/.profile
exit
hipcc --version
rocm-sdk version
