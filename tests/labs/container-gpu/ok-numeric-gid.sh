./run-rocminfo.sh
getent group render
sudo docker run --rm --device=/dev/kfd --device=/dev/dri --group-add $(getent group render | cut -d: -f3) rocm/rocm-terminal rocminfo
