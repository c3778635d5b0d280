# expect: torch: hipErrorNoBinaryForGpu
echo 'export HIP_VISIBLE_DEVICES=1' >> ~/.bashrc
echo 'HSA_OVERRIDE_GFX_VERSION=10.3.0' >> ~/.bashrc
