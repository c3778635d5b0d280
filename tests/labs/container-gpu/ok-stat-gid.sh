stat -c %g /dev/kfd 2>/dev/null || ls -ln /dev/kfd
sudo docker run --rm --device=/dev/kfd --device=/dev/dri --group-add 992 rocm/rocm-terminal rocminfo
