# expect: torch: hipErrorNoBinaryForGpu
echo 'export HIP_VISIBLE_DEVICES=1' >> ~/.bashrc
exit
python3 smoke.py
