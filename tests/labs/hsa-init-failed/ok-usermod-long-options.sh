sudo usermod --append --groups=render,video learner
exit
id
