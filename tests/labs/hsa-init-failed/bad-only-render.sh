# expect: groups: /etc/group does not list learner in video
sudo usermod -aG render learner
exit
