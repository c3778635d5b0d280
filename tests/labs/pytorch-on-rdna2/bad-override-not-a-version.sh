# expect: torch: HSA_OVERRIDE_GFX_VERSION="gfx1030" is not a version
echo 'export HIP_VISIBLE_DEVICES=1' >> ~/.bashrc
echo 'export HSA_OVERRIDE_GFX_VERSION=gfx1030' >> ~/.bashrc
