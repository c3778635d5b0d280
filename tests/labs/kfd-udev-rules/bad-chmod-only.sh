# expect: rule: No udev rule gives /dev/kfd mode 0666
sudo chmod 666 /dev/kfd /dev/dri/renderD128
