sudo gpasswd --add learner render
sudo gpasswd --add learner video
logout
rocminfo
