# The group read off the device with stat, the tools found with which.
which rocminfo
stat -c '%G %a' /dev/kfd
sudo usermod -aG "$(stat -c %G /dev/kfd)",video learner
ls /no-such-file
man ls | head -3
exit
rocminfo
