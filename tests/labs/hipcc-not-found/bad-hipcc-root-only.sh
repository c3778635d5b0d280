# expect: next-login: A new login would not find hipcc
# needs: root (files owned by root: a lab started by root)
# /opt/rocm/bin on every login's PATH, but the folder closed to everyone but root: bash finds
# no hipcc it may run there.
echo 'export PATH=$PATH:/opt/rocm/bin' | sudo tee /etc/profile.d/rocm.sh
sudo chmod 700 /opt/rocm-6.2.2/bin
exit
hipcc --version
