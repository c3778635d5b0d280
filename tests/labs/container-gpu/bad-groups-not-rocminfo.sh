# expect: group: No container has run rocminfo yet
sudo docker run --rm --device=/dev/kfd --device=/dev/dri --group-add 992 rocm/rocm-terminal groups
