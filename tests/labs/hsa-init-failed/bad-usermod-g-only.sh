# expect: groups: /etc/group does not list learner in video
sudo usermod -g render learner
exit
