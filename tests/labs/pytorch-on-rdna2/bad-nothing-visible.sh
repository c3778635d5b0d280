# expect: select: A new login would make no GPU visible
echo 'export ROCR_VISIBLE_DEVICES=1 HIP_VISIBLE_DEVICES=1' >> ~/.bashrc
echo 'export HSA_OVERRIDE_GFX_VERSION=10.3.0' >> ~/.bashrc
