# 시뮬레이션 머신의 부팅·udev·클러스터 상태를 읽는 실습 검사의 이유 문구.
machine-why-rule-add-only = { $device }에 대한 규칙은 ACTION=="add" 이벤트에만 일치하는데, 옵션 없는 udevadm trigger는 "change" 이벤트를 보냅니다. add 이벤트를 보내거나(sudo udevadm trigger --action=add) ACTION 조건을 빼세요.
machine-why-rule-overridden = { $file }은(는) udev 기본 규칙인 { $default }보다 먼저 처리되므로, 나중에 모드가 다시 설정됩니다. 파일 이름의 번호를 50보다 크게 하세요(예: 70-amdgpu.rules).
machine-why-device-plugin-image = DaemonSet이 실행하는 이미지는 { $image }(으)로, AMD의 장치 플러그인이 아닙니다(NVIDIA의 것도 이름이 같습니다). 그래서 amd.com/gpu를 알리는 노드가 없습니다. 이미지가 rocm/k8s-device-plugin인 AMD의 매니페스트를 적용하세요.
machine-why-label-overwrite = 노드 { $node }에는 이미 { $key }={ $value }가 붙어 있고, kubectl label은 --overwrite 없이는 기존 레이블을 바꾸지 않습니다: kubectl label node { $node } { $label } --overwrite
machine-why-label-case = 노드 { $node }에는 { $key }={ $value }가 붙어 있지만, 레이블 값은 대소문자를 구분합니다. Pod의 nodeSelector는 { $want }를 요구하므로 { $value }는 맞지 않습니다. 정확한 값으로 바꾸세요: kubectl label node { $node } { $label } --overwrite
machine-why-blacklisted = { $file }이(가) { $module }을(를) 블랙리스트에 올렸기 때문에 다음 부팅 때 udev도 systemd-modules-load도 이 모듈을 로드하지 않습니다(직접 modprobe하면 로드됩니다). 그 줄을 지우거나 주석 처리하세요.
machine-why-blacklist-cmdline = 다음 부팅의 커널 명령줄에 modprobe.blacklist={ $module }이(가) 들어 있습니다. /etc/default/grub의 GRUB_CMDLINE_LINUX_DEFAULT 또는 GRUB_CMDLINE_LINUX에서 지운 다음 sudo update-grub을 실행하세요.
machine-why-nomodeset = 다음 부팅의 커널 명령줄에 nomodeset이 들어 있어 amdgpu가 시작되지 못합니다. /etc/default/grub에서 지운 다음 sudo update-grub을 실행하세요.
machine-why-installer-codename = 저장소는 { $found }용인데 이 노드는 Ubuntu { $codename }입니다. amdgpu-install .deb가 { $found }용으로 빌드된 것이었습니다. https://repo.radeon.com/amdgpu-install/{ $version }/ubuntu/{ $codename }/ 에서 맞는 것을 내려받아 sudo dpkg -i로 덮어 설치하세요.
machine-why-login-tools = 새 로그인에서 { $command }은(는) 찾지만 일상 명령({ $lost })을 쓸 수 없게 됩니다. 시작 파일에서 설정한 PATH가 시스템 디렉터리를 대체하기 때문입니다. 대체하지 말고 추가하세요: export PATH=$PATH:/opt/rocm/bin
machine-why-repo-not-mirrored = { $file }이(가) ROCm { $version }을(를) 가리킵니다. repo.radeon.com에는 있지만 이 실습의 오프라인 미러에는 { $have }만 있습니다. 여기서는 그중 한 버전을 쓰세요.
