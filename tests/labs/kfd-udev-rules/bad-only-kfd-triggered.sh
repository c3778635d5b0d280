# expect: render-applied: The rule is written, but udev has not applied it to /dev/dri/renderD128 yet
printf '%s\n' 'KERNEL=="kfd", MODE="0666"' 'SUBSYSTEM=="drm", KERNEL=="renderD*", MODE="0666"' | sudo tee /etc/udev/rules.d/70-amdgpu.rules
sudo udevadm trigger --subsystem-match=kfd
