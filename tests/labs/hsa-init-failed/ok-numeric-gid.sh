ls -ln /dev/kfd
sudo usermod -aG "$(getent group render | cut -d: -f3)" learner
sudo usermod -aG video learner
exit
