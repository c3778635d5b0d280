sudo gpasswd -a learner render
sudo gpasswd -a learner video
newgrp render
rocminfo
