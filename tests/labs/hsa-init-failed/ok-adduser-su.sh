sudo adduser learner render
sudo adduser learner video
sudo su - learner
groups
