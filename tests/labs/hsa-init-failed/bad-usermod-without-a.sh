# expect: groups: learner is no longer in adm, sudo
sudo usermod -G render,video learner
exit
rocminfo
