# expect: devices: had /dev/kfd but no render node
./run-rocminfo.sh
