cat > ~/gpu-run.sh <<'SCRIPT'
#!/bin/sh
exec sudo docker run --rm --device=/dev/kfd --device=/dev/dri --group-add "$(getent group render | cut -d: -f3)" rocm/rocm-terminal "$@"
SCRIPT
chmod +x ~/gpu-run.sh
~/gpu-run.sh rocminfo
