# expect: group: did not hold the host's render group (gid 992)
sudo docker run --rm --device=/dev/kfd --device=/dev/dri --group-add 993 rocm/rocm-terminal rocminfo
