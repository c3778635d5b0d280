sed -i '$a export HIP_VISIBLE_DEVICES=1\nexport HSA_OVERRIDE_GFX_VERSION=10.3.0' ~/.bashrc
tail -2 ~/.bashrc
