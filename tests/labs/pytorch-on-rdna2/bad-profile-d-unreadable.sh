# expect: select: A new login still shows ROCm the integrated GPU
# needs: root (files owned by root: a lab started by root)
# The right variables, in a profile file only root may read: the learner's logins skip it.
rocminfo | grep -E 'Marketing Name|Name: +gfx'
printf 'export ROCR_VISIBLE_DEVICES=1\nexport HSA_OVERRIDE_GFX_VERSION=10.3.0\n' | sudo tee /etc/profile.d/gpu.sh
sudo chmod 600 /etc/profile.d/gpu.sh
