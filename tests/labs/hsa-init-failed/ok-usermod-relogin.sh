rocminfo
sudo usermod -aG render,video learner
exit
rocminfo
