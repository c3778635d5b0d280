# The group read off the device with stat, the tools found with which.
which rocminfo
stat -c '%G %a' /dev/kfd
sudo usermod -aG "$(stat -c %G /dev/kfd)",video learner
ls /no-such-file
man ls </dev/null 2>&1 | grep -m1 -o 'list directory contents'
exit
rocminfo
