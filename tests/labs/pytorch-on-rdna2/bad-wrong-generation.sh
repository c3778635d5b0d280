# expect: torch: code built for gfx1100, another generation
echo 'export HIP_VISIBLE_DEVICES=1' >> ~/.bashrc
echo 'export HSA_OVERRIDE_GFX_VERSION=11.0.0' >> ~/.bashrc
