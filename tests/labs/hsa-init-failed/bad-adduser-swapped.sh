# expect: groups: /etc/group does not list learner in render, video
sudo adduser render learner
sudo adduser video learner
exit
