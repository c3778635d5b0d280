sudo usermod -aG render,video learner
sudo login -f learner
