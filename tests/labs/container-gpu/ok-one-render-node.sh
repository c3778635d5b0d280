ls -l /dev/dri
sudo docker run --rm --device /dev/kfd --device /dev/dri/renderD128 --group-add 992 rocm/rocm-terminal rocminfo
