sudo sh -c 'echo "export HIP_VISIBLE_DEVICES=1" > /etc/profile.d/rocm-gpu.sh; echo "export HSA_OVERRIDE_GFX_VERSION=10.3.0" >> /etc/profile.d/rocm-gpu.sh'
exit
python3 smoke.py
