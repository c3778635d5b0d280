# expect: next-login: A new login would not find hipcc
# needs: root (files owned by root: a lab started by root)
# The profile file made root's alone: /etc/profile skips what the learner cannot read, so a
# new login has no /opt/rocm/bin (the grader's login must not read it with more rights).
export PATH=$PATH:/opt/rocm/bin
echo 'export PATH=$PATH:/opt/rocm/bin' | sudo tee /etc/profile.d/rocm.sh
sudo chmod 600 /etc/profile.d/rocm.sh
exit
hipcc --version
