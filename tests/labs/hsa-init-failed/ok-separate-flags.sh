sudo usermod -a -G video learner
sudo usermod --append --groups render learner
exit
