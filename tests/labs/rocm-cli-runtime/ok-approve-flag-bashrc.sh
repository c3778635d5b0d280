rocm examine
rocm install sdk --version 10.1.0 --family gfx942 --devel --approve-replacing-active-default
echo 'R=$HOME/.rocm/runtimes/wheel/release-wheel-gfx942-10-1-0-devel; export PATH="$R/bin:$R/lib/python3.12/site-packages/_rocm_sdk_devel/bin:$PATH"' >> ~/.bashrc
exit
which hipcc
rocm-sdk version
