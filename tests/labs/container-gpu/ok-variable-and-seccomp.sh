RENDER_GID=$(getent group render | cut -d: -f3)
echo "$RENDER_GID"
sudo docker run -it --rm --security-opt seccomp=unconfined --device=/dev/kfd --device=/dev/dri --group-add video --group-add "$RENDER_GID" rocm/rocm-terminal rocminfo
