grep -E '^(render|video):' /etc/group
sudo gpasswd -M learner render
sudo gpasswd -M learner video
exit
rocminfo
