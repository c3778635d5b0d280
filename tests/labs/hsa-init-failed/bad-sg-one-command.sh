# expect: new-login: this login started before that change
sudo usermod -aG render,video learner
sg render -c rocminfo
