rocm install sdk --version 10.1.0 --family gfx942 --devel --prefix /home/learner/rocm-10.1 --yes
echo 'export PATH="$HOME/rocm-10.1/bin:$HOME/rocm-10.1/lib/python3.12/site-packages/_rocm_sdk_devel/bin:$PATH"' >> ~/.bashrc
exit
which hipcc
rocm-sdk version
