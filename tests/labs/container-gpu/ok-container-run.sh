# The management form of docker run, then the short one for images.
sudo docker image ls
sudo docker container run --rm --device=/dev/kfd --device=/dev/dri --group-add "$(stat -c %g /dev/kfd)" rocm/rocm-terminal rocminfo
