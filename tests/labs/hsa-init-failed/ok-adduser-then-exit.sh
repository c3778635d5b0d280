sudo adduser learner render
sudo adduser learner video
exit
groups
