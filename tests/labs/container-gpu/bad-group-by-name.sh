# expect: group: Names are looked up inside the image: pass the number
sudo docker run --rm --device=/dev/kfd --device=/dev/dri --group-add render rocm/rocm-terminal rocminfo
