# expect: runtime: no longer holds its environment
rocm install sdk --version 10.1.0 --family gfx942 --devel --yes
rm -rf $HOME/.rocm/runtimes/wheel/release-wheel-gfx942-10-1-0-devel
exit
