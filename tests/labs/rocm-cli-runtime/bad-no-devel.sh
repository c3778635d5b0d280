# expect: runtime: has no compiler (toolchain=excluded
rocm install sdk --version 10.1.0 --family gfx942 --yes
echo 'R=$HOME/.rocm/runtimes/wheel/release-wheel-gfx942-10-1-0; export PATH="$R/bin:$R/lib/python3.12/site-packages/_rocm_sdk_devel/bin:$PATH"' >> ~/.bashrc
exit
rocm-sdk version
