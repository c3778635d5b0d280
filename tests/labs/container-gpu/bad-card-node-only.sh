# expect: devices: had /dev/kfd but no render node
sudo docker run --rm --device=/dev/kfd --device=/dev/dri/card0 --group-add 992 rocm/rocm-terminal rocminfo
