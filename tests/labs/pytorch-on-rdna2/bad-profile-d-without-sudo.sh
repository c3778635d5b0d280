# expect: select: A new login still shows ROCm the integrated GPU
echo 'export HIP_VISIBLE_DEVICES=1 HSA_OVERRIDE_GFX_VERSION=10.3.0' > /etc/profile.d/gpu.sh
