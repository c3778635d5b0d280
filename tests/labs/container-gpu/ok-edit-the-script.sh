sed -i 's|--group-add video|--device=/dev/dri --group-add video --group-add 992|' run-rocminfo.sh
cat run-rocminfo.sh
./run-rocminfo.sh
