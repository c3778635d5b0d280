# expect: groups: learner is no longer in sudo
sudo gpasswd -a learner render
sudo gpasswd -a learner video
sudo gpasswd -d learner sudo
exit
