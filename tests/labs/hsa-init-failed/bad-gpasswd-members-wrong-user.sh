# expect: groups: /etc/group does not list learner in render, video
sudo gpasswd -M root render
sudo gpasswd -M root video
exit
