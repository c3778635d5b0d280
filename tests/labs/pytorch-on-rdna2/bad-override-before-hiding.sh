# expect: select: A new login still shows ROCm the integrated GPU
echo 'export HSA_OVERRIDE_GFX_VERSION=10.3.0' >> ~/.bashrc
exit
python3 smoke.py
