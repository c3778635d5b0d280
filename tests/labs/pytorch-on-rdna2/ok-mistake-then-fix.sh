echo 'export HSA_OVERRIDE_GFX_VERSION=11.0.0' >> ~/.bashrc
sed -i 's/11.0.0/10.3.0/' ~/.bashrc
echo 'export HIP_VISIBLE_DEVICES=1' >> ~/.bashrc
