# rocm-learn doctor: 실습의 점검을 이 실제 컴퓨터에 대해 실행합니다(읽기 전용).
# 명령, 경로, 그룹 이름, 도구 출력은 어느 언어에서나 그대로 둡니다.

doctor-title = rocm-learn doctor: 이 컴퓨터의 ROCm 설정을 아래층부터 차례로 점검합니다. 아무것도 바꾸지 않습니다.
doctor-level-ok = 정상
doctor-level-problem = 문제
doctor-level-unknown = 판단 불가
doctor-fix = 해결: { $text }
doctor-fix-same = 해결: 위와 같습니다.
doctor-learn-more = 더 알아보기: { $command }
doctor-summary = 문제 { $problems }건, 정상 { $ok }건, 판단 불가 { $unknown }건입니다.

# 아래층이 있어야 하는 점검
doctor-needs-driver = { $check ->
    [kfd] /dev/kfd
    [kfd_access] /dev/kfd 접근
    [render] 렌더 노드(/dev/dri/renderD*)
    [rocminfo] rocminfo
    [amd_smi] amd-smi
   *[other] { $check }
}: amdgpu 드라이버가 로드되지 않아 판단할 수 없습니다. 위층은 모두 드라이버에 의존하므로 드라이버부터 고치세요.

# 1F: PCI 버스의 GPU
doctor-gpu-found = PCI 버스에 AMD GPU가 있습니다: { $count }개({ $list }).
doctor-gpu-none = AMD GPU를 찾지 못했습니다. PCI 버스에 AMD 디스플레이 컨트롤러도 프로세싱 가속기도 없습니다. ROCm은 AMD GPU에서 프로그램을 실행하므로, 이 컴퓨터에서는 드라이버·장치·그룹·ROCm 점검을 할 대상이 없어 생략했습니다.
doctor-gpu-none-fix = 여기가 GPU 노드가 아니라면 GPU 노드에서 rocm-learn doctor를 실행하세요. GPU 노드라면 카드가 제대로 장착되어 있는지, 전원이 연결되어 있는지, BIOS에서 켜져 있는지 확인하세요. 소프트웨어로 해결할 수 있는 것은 lspci -d 1002:에 GPU가 나온 다음부터입니다.
doctor-gpu-unreadable = AMD GPU가 있는지 판단할 수 없습니다. { $path }을(를) 읽을 수 없습니다({ $error }). /sys가 없는 컨테이너 안이라면 호스트에서 doctor를 실행하세요.

# 2F: 드라이버
doctor-amdgpu-dkms = amdgpu 드라이버가 로드되어 있습니다. AMD의 DKMS 빌드이며 버전은 { $version }입니다.
doctor-amdgpu-intree = amdgpu 드라이버가 로드되어 있습니다. 커널 { $kernel }에 포함된 드라이버입니다.
doctor-amdgpu-builtin = amdgpu 드라이버가 커널 { $kernel }에 내장되어 있습니다.
doctor-amdgpu-state = amdgpu 모듈의 상태가 "live"가 아니라 "{ $state }"입니다. 아직 로드 중이거나 제거되는 중입니다.
doctor-amdgpu-not-loaded = amdgpu 커널 모듈이 로드되지 않았습니다. GPU는 버스에 있지만 이를 구동하는 드라이버가 없습니다.
doctor-amdgpu-not-loaded-fix = sudo modprobe amdgpu 명령을 실행하고, 부팅할 때마다 로드되도록 echo amdgpu | sudo tee /etc/modules-load.d/amdgpu.conf 명령을 실행하세요. modprobe가 "Module amdgpu not found"라고 답하면 커널 { $kernel }용 드라이버를 설치하세요.
doctor-amdgpu-not-built = amdgpu 커널 모듈이 로드되지 않았고, 커널 { $kernel }에는 로드할 amdgpu 모듈도 없습니다. 커널에 포함된 모듈도, AMD의 DKMS 빌드도 /lib/modules/{ $kernel }에 등록되어 있지 않습니다.
doctor-amdgpu-not-built-fix = 이 커널의 헤더를 설치하고 DKMS가 드라이버를 빌드하게 하세요. sudo apt install linux-headers-{ $kernel } 명령을 실행한 뒤 amdgpu-dkms를 다시 설치합니다. dkms status에 { $kernel }이(가) 나오면 sudo modprobe amdgpu 명령을 실행합니다.
doctor-amdgpu-blocked = amdgpu 커널 모듈이 로드되지 않았습니다. { $place }의 다음 설정이 로드를 막고 있습니다: { $line }
doctor-amdgpu-blocked-fix = 그 설정을 지우세요(커널 매개변수라면 /etc/default/grub에서 지우고 sudo update-grub 명령을 실행한 뒤 재부팅합니다). 그런 다음 sudo modprobe amdgpu 명령을 실행합니다.
doctor-dmesg-fix = 이유는 드라이버가 남긴 메시지에 있습니다: sudo dmesg | grep -iE 'amdgpu|kfd'

# 2F: 장치 파일과 이를 열 수 있는 사용자
doctor-kfd-present = /dev/kfd가 있습니다(그룹 { $group }, 모드 { $mode }).
doctor-kfd-missing = amdgpu 드라이버는 로드되어 있지만 /dev/kfd가 없어 ROCm 프로그램이 시작될 수 없습니다. 드라이버가 계산에 쓸 수 있는 GPU를 찾지 못했거나 초기화에 실패했습니다.
doctor-access-no-kfd = /dev/kfd 접근: 파일이 없어 판단할 수 없습니다.
doctor-open-ok = { $user }은(는) { $device }을(를) 읽기·쓰기로 열 수 있습니다.
doctor-open-missing = doctor가 여는 사이에 { $device }이(가) 사라졌습니다.
doctor-open-error = { $device }을(를) 읽기·쓰기로 열지 못했습니다: { $error }
doctor-denied-not-member = { $user }은(는) { $device }을(를) 읽기·쓰기로 열 수 없습니다(Permission denied). 이 파일은 그룹 { $group }, 모드 { $mode }이고, /etc/group에는 { $user }이(가) { $group }에 들어 있지 않습니다.
doctor-denied-not-member-fix = sudo usermod -aG { $groups } { $user } 명령을 실행한 뒤 로그아웃했다가 다시 로그인하세요. -a는 빼지 마세요. 없으면 usermod가 { $user }의 다른 그룹을 모두 바꿔 버립니다.
doctor-denied-relogin = { $user }은(는) { $device }을(를) 읽기·쓰기로 열 수 없습니다(Permission denied). /etc/group에는 { $user }이(가) { $group }에 들어 있지만, 이 로그인은 그 변경 전에 시작되어 아직 그 그룹이 없습니다.
doctor-relogin-fix = 로그아웃했다가 다시 로그인하세요. 변경 전에 시작한 터미널, SSH 연결, tmux 서버는 모두 예전 그룹을 그대로 씁니다. 지금 셸 하나에서만 쓰려면 newgrp { $group } 명령으로 충분합니다. 그다음 id -nG에 { $group }이(가) 나오는지 확인하세요.
doctor-denied-closed = { $user }은(는) { $device }을(를) 읽기·쓰기로 열 수 없습니다(Permission denied). 모드 { $mode }에서는 소유자 { $owner }만 들어갈 수 있고 그룹 { $group }에는 읽기·쓰기 권한이 없으므로, 그룹에 들어가도 해결되지 않습니다.
doctor-denied-closed-fix = udev 규칙으로 장치 파일의 모드를 고치세요. 예를 들어 /etc/udev/rules.d/70-amdgpu.rules에 KERNEL=="kfd", GROUP="render", MODE="0660"(그리고 SUBSYSTEM=="drm", KERNEL=="renderD*", GROUP="render", MODE="0660")을 적고 sudo udevadm control --reload-rules && sudo udevadm trigger 명령을 실행합니다.
doctor-denied-other = 이 로그인에는 그룹 { $group }이(가) 있고 모드 { $mode }도 그룹에 읽기·쓰기를 허용하지만, { $user }은(는) { $device }을(를) 읽기·쓰기로 열 수 없습니다(Permission denied). ACL, SELinux나 AppArmor, 또는 장치를 넘기지 않고 시작한 컨테이너처럼 파일 모드 밖의 무언가가 거부하고 있습니다.
doctor-denied-other-fix = getfacl { $device } 명령과 sudo dmesg | tail 명령으로 거부 기록을 확인하세요. 컨테이너 안이라면 장치를 넘겨서 시작합니다(예: --device=/dev/kfd --device=/dev/dri).
doctor-render-none = amdgpu 드라이버는 로드되어 있지만 /dev/dri에 AMD GPU의 렌더 노드(renderD*)가 없습니다.
doctor-render-ok = { $user }은(는) 렌더 노드 { $count }개를 모두 읽기·쓰기로 열 수 있습니다({ $list }).

# 이 로그인의 그룹과 /etc/group
doctor-groups-unreadable = /etc/group을 읽을 수 없어 이 사용자가 어느 그룹에 들어 있는지 판단할 수 없습니다.
doctor-groups-relogin = /etc/group에는 { $user }이(가) { $groups }에 들어 있지만, 이 로그인은 그 변경 전에 시작되어 아직 그 그룹이 없습니다. 여기서 시작한 프로그램은 { $groups }을(를) 통해 GPU를 쓸 수 없습니다.
doctor-groups-match = 이 로그인에는 /etc/group이 { $user }에게 준 GPU 그룹이 모두 있습니다: { $groups ->
    [none] render와 video 어느 쪽에도 들어 있지 않습니다(여기서 그것이 문제인지는 위의 /dev/kfd 결과를 보세요)
   *[other] { $groups }
}.

# ROCm과 PATH
doctor-rocm-found = ROCm { $version }이(가) { $dir }에 설치되어 있습니다.{ $others ->
    [none] {""}
   *[other] {" "}{ $others }도 있습니다.
}
doctor-rocm-noversion = ROCm이 { $dir }에 설치되어 있지만 버전을 읽을 수 없습니다. .info/version이 없고, 폴더 이름도 rocm-X.Y.Z 형식이 아닙니다.{ $others ->
    [none] {""}
   *[other] {" "}{ $others }도 있습니다.
}
doctor-rocm-none = ROCm이 설치되어 있지 않습니다. /opt/rocm이 없습니다.
doctor-rocm-none-fix = 배포 레슨에서 보여 준 대로 설치하세요. 이 OS용 AMD 저장소와 커널 헤더를 준비하고 sudo apt install amdgpu-dkms rocm(또는 amdgpu-install --usecase=rocm)을 실행한 뒤 재부팅합니다.
doctor-path-ok = PATH에 { $dir }이(가) 들어 있습니다. hipcc, rocminfo 같은 ROCm 도구를 이름만으로 실행할 수 있습니다.
doctor-path-missing = ROCm 프로그램은 { $dir }에 있지만 이 폴더가 PATH에 없습니다. hipcc나 rocminfo를 입력하면 "command not found"가 나옵니다.
doctor-path-missing-fix = 이 셸에서는 export PATH=$PATH:{ $dir } 명령을 실행하고, 새로 로그인할 때도 적용되도록 같은 줄을 ~/.bashrc나 /etc/profile.d/rocm.sh에 적으세요.
doctor-path-no-rocm = PATH: ROCm이 설치되어 있지 않아 어느 폴더를 찾아야 할지 판단할 수 없습니다.
doctor-path-unset = 이 프로그램에는 PATH가 설정되어 있지 않아 셸에서 무엇을 찾을지 판단할 수 없습니다.

# 3F: rocminfo와 amd-smi
doctor-tool-no-rocm = { $tool }: ROCm이 설치되어 있지 않아 판단할 수 없습니다.
doctor-tool-timeout = { $tool }이(가) { $secs }초 안에 끝나지 않아 doctor가 중지했습니다. 도구가 응답하지 않으면 드라이버나 펌웨어에 문제가 있는 경우가 많습니다. sudo dmesg를 확인하세요.
doctor-tool-failed = { $tool }을(를) 시작할 수 없습니다: { $error }
doctor-rocminfo-ok = rocminfo({ $path })에 GPU 에이전트가 { $count }개 나옵니다: { $names }.
doctor-rocminfo-missing = rocminfo가 설치되어 있지 않습니다. PATH에도, ROCm의 bin 폴더에도 없습니다.
doctor-rocminfo-missing-fix = sudo apt install rocminfo 명령을 실행하세요(다른 배포판에서는 dnf나 zypper를 씁니다).
doctor-rocminfo-no-module = rocminfo의 출력은 "{ $line }"입니다. 런타임에서 드라이버가 보이지 않습니다.
doctor-rocminfo-kfd = rocminfo가 /dev/kfd를 열지 못합니다: "{ $line }". ROCm 프로그램은 모두 같은 이유로 실패합니다("hsa_init() failed"만 나오는 경우도 많습니다). 이유는 위의 /dev/kfd 결과에 있습니다.
doctor-rocminfo-failed = rocminfo가 종료 상태 { $code }(으)로 끝났습니다: "{ $line }"
doctor-rocminfo-no-agent = rocminfo는 실행되었지만 GPU 에이전트가 나오지 않습니다. 런타임은 시작되었으나 쓸 수 있는 GPU를 찾지 못했습니다.
doctor-amdsmi-ok = amd-smi({ $path })에 GPU가 { $count }개 나옵니다.
doctor-amdsmi-none = amd-smi에 GPU가 나오지 않습니다: "{ $line }"
doctor-amdsmi-missing = amd-smi가 설치되어 있지 않습니다. ROCm 6.0 이상에 포함되어 있습니다(패키지 amd-smi-lib). 그보다 오래된 노드에서는 대신 rocm-smi를 씁니다.

# 운영 체제와 지원 매트릭스
doctor-os-listed = { $pretty }, 커널 { $kernel }: 코스의 지원 매트릭스는 이 운영 체제를 ROCm { $releases }의 지원 대상으로 올려 두었습니다.
doctor-os-unlisted = { $pretty }, 커널 { $kernel }: 코스의 지원 매트릭스에서 이 운영 체제는 알려진 어느 릴리스({ $releases })의 지원 대상에도 없습니다.
doctor-os-unlisted-fix = 여기서도 ROCm이 동작할 수는 있지만 아무도 테스트하지 않았습니다. 운영 노드에는 쓰려는 GPU에 대해 지원 매트릭스에 있는 운영 체제를 고르세요.
doctor-os-unreadable = /etc/os-release를 읽을 수 없어 운영 체제를 판단할 수 없습니다(커널 { $kernel }).
doctor-support-no-isa = GPU 모델을 판단할 수 없습니다. 드라이버의 토폴로지(/sys/class/kfd)가 없고 rocminfo도 ISA를 보여 주지 않아 지원 매트릭스에서 찾을 수 없습니다.
doctor-support-no-os = 운영 체제를 알 수 없어 지원 매트릭스에서 GPU를 찾을 수 없습니다.
doctor-support-no-data = 코스에 지원 매트릭스 데이터가 없어 판단할 수 없습니다.
doctor-support-no-release = 판단할 수 없습니다. 코스의 지원 매트릭스에는 ROCm { $release } 데이터가 없습니다(있는 것은 { $known }입니다). 답은 그 릴리스에 대한 AMD의 호환성 표에 있습니다.
doctor-support-ok = { $os }, { $gpu }({ $name }), ROCm { $release }{ $planned ->
    [yes] (설치되지 않음, 코스가 아는 최신 릴리스)
   *[other] {""}
}: 지원됩니다.
doctor-support-deprecated = { $os }, { $gpu }({ $name }), ROCm { $release }{ $planned ->
    [yes] (설치되지 않음, 코스가 아는 최신 릴리스)
   *[other] {""}
}: 지원 중단 예정입니다. 지금은 동작하지만 새 기능은 추가되지 않고 이후 릴리스에서 지원이 빠집니다. 옮길 계획을 세우세요.
doctor-support-unsupported = { $os }, { $gpu }({ $name }), ROCm { $release }{ $planned ->
    [yes] (설치되지 않음, 코스가 아는 최신 릴리스)
   *[other] {""}
}: 지원되지 않습니다. { $why ->
    [unlisted] 이 릴리스에는 이 GPU가 아예 없습니다.
    [os] 이 릴리스는 이 GPU를 지원하지만, 이 운영 체제에서는 지원하지 않습니다.
   *[other] 지원 매트릭스는 이 릴리스에서 이 GPU를 지원 대상에서 제외했습니다.
} HIP 런타임으로 프로그램이 실행될 수는 있지만, 미리 빌드된 라이브러리는 여기서 지원되지 않아 실행 중에 실패할 수 있습니다. 예를 들어 이 GPU용 코드가 없으면 "invalid device function"이 납니다.
doctor-support-fix = 지원 매트릭스에서 지원되는 조합을 고르세요(지원 매트릭스는 rocm-learn 홈 화면에서 열 수 있습니다). ROCm 릴리스, 운영 체제, GPU 중 하나를 바꾸게 됩니다.
