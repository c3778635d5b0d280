# expect: group: The container ran as root
sudo docker run --rm -u root --device=/dev/kfd --device=/dev/dri rocm/rocm-terminal rocminfo
