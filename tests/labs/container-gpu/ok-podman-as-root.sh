sudo podman run --rm --device=/dev/kfd --device=/dev/dri --group-add 992 rocm/rocm-terminal rocminfo
