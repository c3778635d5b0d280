rocm install sdk --version 10.1.0 --family gfx942 --devel --yes
mkdir -p ~/bin
ln -s $HOME/.rocm/runtimes/wheel/release-wheel-gfx942-10-1-0-devel/lib/python3.12/site-packages/_rocm_sdk_devel/bin/hipcc ~/bin/hipcc
ln -s $HOME/.rocm/runtimes/wheel/release-wheel-gfx942-10-1-0-devel/lib/python3.12/site-packages/_rocm_sdk_devel/bin/rocminfo ~/bin/rocminfo
exit
$HOME/.rocm/runtimes/wheel/release-wheel-gfx942-10-1-0-devel/bin/rocm-sdk version
