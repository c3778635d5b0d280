# expect: select: A new login still shows ROCm the integrated GPU
export HIP_VISIBLE_DEVICES=1
export HSA_OVERRIDE_GFX_VERSION=10.3.0
python3 smoke.py
