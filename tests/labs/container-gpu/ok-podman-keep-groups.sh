groups
podman run --rm --device=/dev/kfd --device=/dev/dri --group-add keep-groups rocm/rocm-terminal rocminfo
