rocminfo | grep -E 'Marketing Name|Name: +gfx'
python3 smoke.py
echo 'export ROCR_VISIBLE_DEVICES=1' >> ~/.bashrc
echo 'export HSA_OVERRIDE_GFX_VERSION=10.3.0' >> ~/.bashrc
exit
python3 smoke.py
