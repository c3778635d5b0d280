sudo usermod -aG render,video learner
sudo -iu learner
