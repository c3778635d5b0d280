# expect: groups: /etc/group does not list learner in render, video
usermod -aG render,video learner
exit
