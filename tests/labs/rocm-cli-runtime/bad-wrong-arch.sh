# expect: runtime: was built for gfx1100; this node's GPUs are gfx942
rocm install sdk --version 10.1.0 --family gfx1100 --devel --yes
echo 'R=$HOME/.rocm/runtimes/wheel/release-wheel-gfx1100-10-1-0-devel; export PATH="$R/bin:$R/lib/python3.12/site-packages/_rocm_sdk_devel/bin:$PATH"' >> ~/.bashrc
exit
rocm-sdk version
