gid="$(getent group render | awk -F: '{print $3}')"
sudo docker run --rm --ipc=host --shm-size 8G --device=/dev/kfd --device=/dev/dri --group-add video --group-add "$gid" rocm/rocm-terminal rocminfo
