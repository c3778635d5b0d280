rocminfo | grep -E 'Marketing Name|Name: +gfx'
printf 'export ROCR_VISIBLE_DEVICES=1\nexport HSA_OVERRIDE_GFX_VERSION=10.3.0\n' | sudo tee /etc/profile.d/gpu.sh
