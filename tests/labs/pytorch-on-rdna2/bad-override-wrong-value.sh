# expect: torch: HSA_OVERRIDE_GFX_VERSION=10.3.1
echo 'export ROCR_VISIBLE_DEVICES=1' >> ~/.bashrc
echo 'export HSA_OVERRIDE_GFX_VERSION=10.3.1' >> ~/.bashrc
exit
python3 smoke.py
