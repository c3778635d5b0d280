# expect: devices: had no /dev/kfd
sudo docker run --rm --device=/dev/dri --group-add 992 rocm/rocm-terminal rocminfo
