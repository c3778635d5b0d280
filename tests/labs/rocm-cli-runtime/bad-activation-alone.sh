# expect: login: activating a runtime changes what rocm uses, not your PATH
rocm install sdk --version 10.1.0 --family gfx942 --devel --yes
exit
which hipcc
$HOME/.rocm/runtimes/wheel/release-wheel-gfx942-10-1-0-devel/bin/rocm-sdk version
