rocm install sdk --version 10.1.0 --family gfx942 --devel --yes
ln -s $HOME/.rocm/runtimes/wheel/release-wheel-gfx942-10-1-0-devel/lib/python3.12/site-packages/_rocm_sdk_devel/bin/hipcc ~/.local/bin/hipcc
ln -s $HOME/.rocm/runtimes/wheel/release-wheel-gfx942-10-1-0-devel/lib/python3.12/site-packages/_rocm_sdk_devel/bin/rocminfo ~/.local/bin/rocminfo
ln -s $HOME/.rocm/runtimes/wheel/release-wheel-gfx942-10-1-0-devel/bin/rocm-sdk ~/.local/bin/rocm-sdk
exit
which hipcc
rocm-sdk version
