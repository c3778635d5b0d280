# 실습: 샌드박스, 셸, 체크리스트

lab-no-bwrap = 실습 셸은 bubblewrap 안에서 실행되는데, bubblewrap이 설치되어 있지 않습니다. 설치한 뒤(Debian·Ubuntu: sudo apt install bubblewrap, Fedora: sudo dnf install bubblewrap, Arch: sudo pacman -S bubblewrap) 실습을 다시 여세요. rocm-learn은 샌드박스 없이 실습 셸을 실행하지 않습니다.
lab-userns-apparmor = 이 환경에서는 bubblewrap이 사용자 네임스페이스를 만들 수 없습니다. AppArmor가 비특권 사용자 네임스페이스를 제한하고 있습니다(Ubuntu 24.04 기본값). sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0으로 전체에 허용하거나, "userns"를 허용하는 bwrap용 AppArmor 프로필을 만드세요(/etc/apparmor.d/ 참고). bubblewrap 메시지: { $error }
lab-userns-disabled = 이 시스템에서는 bubblewrap이 네임스페이스를 만들 수 없습니다. 사용자 네임스페이스가 꺼져 있는 것 같습니다. sudo sysctl -w kernel.unprivileged_userns_clone=1(또는 user.max_user_namespaces를 1 이상으로)로 켜거나, 허용된 컴퓨터에서 rocm-learn을 실행하세요. bubblewrap 메시지: { $error }
lab-bwrap-failed = bubblewrap이 실습 샌드박스를 시작하지 못했습니다: { $error }. rocm-learn은 샌드박스 없이 실습 셸을 실행하지 않습니다.

lab-start-failed = 실습을 시작하지 못했습니다: { $error }
lab-bad-machine = 이 실습이 설명하는 컴퓨터를 시뮬레이터가 만들 수 없습니다: { $error }. 콘텐츠에 `rocm-learn check`를 실행하세요.
lab-file-outside = 실습이 { $path }에 쓰려고 합니다. 실습 컴퓨터의 폴더(/etc, /home, /opt, /var) 밖이라서 시작하지 않았습니다.
lab-script-unreadable = 스크립트 { $file }을(를) 읽지 못했습니다: { $error }
lab-relogin = -- 로그아웃했습니다. { $user } 사용자로 다시 로그인합니다 --
lab-script-checklist = 체크리스트:
lab-script-complete = 실습 완료: { $total }단계 중 { $done }단계 달성.
lab-script-incomplete = 실습 미완료: { $total }단계 중 { $done }단계 달성.

lab-why-state-broken = 채점기가 시뮬레이션된 컴퓨터의 상태를 읽지 못했습니다({ $error }). 여러분의 실수가 아닙니다. 실습을 초기화해서 다시 시작하세요.
lab-why-no-shell = 셸을 기다리는 중입니다. 프롬프트에서 Enter를 누르세요.
lab-why-no-user = /etc/passwd에 { $user } 사용자가 없습니다.
lab-why-groups-missing = /etc/group에 아직 { $user }이(가) { $groups }에 들어 있지 않습니다. 예를 들어 sudo usermod -aG { $csv } { $user }로 그룹을 추가하세요.
lab-why-groups-dropped = { $user }이(가) { $groups }에서 빠졌습니다. usermod -G를 -a 없이 쓰면 보조 그룹이 모두 바뀝니다. sudo usermod -aG { $csv } { $user }로 되돌리고, 추가할 때는 항상 -a를 쓰세요.
lab-why-session-old = /etc/group에는 { $user }이(가) { $groups }에 들어 있지만, 이 로그인은 그 변경 전에 시작되어 예전 그룹을 그대로 씁니다. 로그아웃했다가 다시 로그인하거나(exit 입력) newgrp { $first }로 그 그룹이 있는 셸을 시작하세요.
lab-why-module-not-loaded = { $module } 커널 모듈이 로드되지 않았습니다: sudo modprobe { $module }
lab-why-no-device = { $device }이(가) 없습니다. 이를 만드는 드라이버가 로드되지 않았습니다.
lab-why-kfd-denied = /dev/kfd는 { $owner }:{ $group }, 모드 { $mode }이고, 이 로그인에서는 읽기·쓰기로 열 수 없습니다. { $group } 그룹에 들어간 뒤 다시 로그인하거나, 장치를 열어 주는 udev 규칙을 만드세요.
lab-why-path-lost = PATH에서 { $dirs }이(가) 빠졌습니다. 이 셸에서는 ls, grep 등 대부분의 명령이 동작하지 않습니다. PATH를 바꾸지 말고 덧붙이세요: export PATH=$PATH:/opt/rocm/bin
lab-why-not-on-path = { $command }이(가) 이 셸의 PATH에 없습니다. 설치 위치는 { $where }입니다. 그 폴더(또는 현재 버전을 가리키는 /opt/rocm/bin)를 PATH에 추가하세요.
lab-why-login-path = 새로 로그인하면 { $command }을(를) 찾지 못합니다. PATH 변경이 이 셸 안에만 있습니다. ~/.bashrc나 /etc/profile.d/rocm.sh처럼 로그인 셸이 읽는 곳에 적으세요.
lab-why-login-not-installed = { $command }가 아직 이 머신에 설치되지 않았으므로 어떤 PATH로도 찾을 수 없습니다. 먼저 ROCm을 설치한 뒤, 새 로그인의 PATH에 /opt/rocm/bin이 있는지 확인하세요.
lab-why-module-not-persisted = { $module }은(는) 지금 로드되어 있지만 재부팅하면 로드되지 않습니다. /etc/modules-load.d/{ $module }.conf(또는 /etc/modules)에 적으세요.
lab-why-no-rule = { $device }을(를) 모드 { $mode }(으)로 만드는 udev 규칙이 없습니다. /etc/udev/rules.d/에 이름이 .rules로 끝나는 파일로 쓰세요.
lab-why-rule-ignored = { $file }은(는) /etc/udev/rules.d에 있지만 이름이 .rules로 끝나지 않아 udev가 무시합니다. 예를 들어 70-amdgpu.rules로 이름을 바꾸세요.
lab-why-rule-not-applied = 규칙은 썼지만 udev가 아직 { $device }에 적용하지 않았습니다: sudo udevadm control --reload-rules && sudo udevadm trigger
lab-why-device-mode = { $device }의 모드는 { $mode }이며 { $want }이(가) 아닙니다.
lab-why-packages = 아직 설치되지 않았습니다: { $packages }
lab-why-packages-half = { $package }의 압축은 풀렸지만 설정이 끝나지 않았습니다. 실행 중인 커널의 헤더가 없어서 드라이버 빌드가 실패했습니다. 헤더를 설치하면(sudo apt install { $headers }) apt가 { $package } 설정을 마무리합니다.
lab-why-headers = 실행 중인 커널의 헤더가 없습니다: sudo apt install { $package } (DKMS가 드라이버를 빌드할 때 필요합니다)
lab-why-no-repo = ROCm 저장소가 설정되어 있지 않습니다. /etc/apt/sources.list.d/에 AMD 소스 줄을 추가하세요.
lab-why-repo-missing = { $file }이(가) { $uri }을(를) 가리키지만 repo.radeon.com에 그런 곳은 없습니다. apt update가 404 Not Found를 받습니다. URL의 버전을 확인하세요.
lab-why-repo-key = apt가 ROCm 저장소를 신뢰하지 않습니다. signed-by=로 지정한 키가 없거나 키링 형식이 아닙니다. AMD 키를 받아 dearmor한 뒤 /etc/apt/keyrings/rocm.gpg에 두세요.
lab-why-repo-update = ROCm 저장소는 설정되었지만 apt가 아직 읽지 않았습니다: sudo apt update
lab-why-repo-codename = { $file }에 있는 AMD 소스 줄은 "{ $suite }"용인데, 이 노드는 { $os }({ $codename })입니다. 노드에 맞는 스위트를 쓰세요.
lab-why-no-cluster = 이 컴퓨터에는 Kubernetes 클러스터가 없습니다.
lab-why-node-label = { $label } 레이블이 붙은 GPU 노드가 없습니다: kubectl label node NODE { $label }
lab-why-device-plugin = AMD GPU 장치 플러그인이 실행되지 않아 amd.com/gpu를 알리는 노드가 없습니다. DaemonSet을 만드세요.
lab-why-no-gpu-pod = { $namespace } 네임스페이스에 아직 amd.com/gpu를 요청하는 Pod가 없습니다.
lab-why-gpu-pod-elsewhere = GPU Pod { $pod }는 { $other } 네임스페이스에 있습니다. 이 랩에서는 팀의 작업이 실행되는 { $namespace } 네임스페이스에 있어야 합니다. 그곳에 만드세요(kubectl apply -f gpu-pod.yaml, -n 없이).
lab-why-pod-pending = Pod { $pod }은(는) 아직 Pending입니다. 이유는 kubectl describe pod { $pod }로 확인하세요.
lab-why-file = { $path }에 아직 "{ $text }"이(가) 들어 있지 않습니다.

lab-cannot-start = 이 환경에서는 실습을 시작할 수 없습니다.
lab-checklist = 체크리스트
lab-complete = 실습 완료: 모든 단계를 마쳤습니다. 잘하셨습니다!
lab-hint = 힌트 { $n }
lab-solution = 풀이
lab-reset-ask = 새 컴퓨터에서 이 실습을 다시 시작할까요? 실습 안에서 바꾼 내용은 사라집니다.
lab-terminal = 터미널(Enter로 입력)
lab-terminal-focused = 터미널(F10이나 Ctrl-]로 나가기)
lab-from-lesson = 레슨: { $title }
labs-none = 이 교재에는 실습이 없습니다.
key-leave-terminal = 터미널에서 나가기
key-hint = 힌트
key-solution = 풀이
key-reset = 다시 시작
key-focus-terminal = 터미널에 입력
lab-status-solved = 완료
lab-status-steps = { $total }단계 중 { $done }단계
cli-lab-plain = 줄 모드: 실습 셸을 표준 입출력에서 한 줄씩 쓰고, 단계를 달성할 때마다 알려 줍니다(스크린 리더용. 터미널이 없으면 자동으로 선택됩니다)
lab-plain-start = 실습: { $title }
lab-plain-commands = 셸 명령을 한 줄에 하나씩 입력하세요. :steps는 단계 목록, :hint는 힌트, :solution은 풀이를 보여 주고, :quit는 실습을 끝냅니다(입력이 끝나도 끝납니다).
lab-plain-step-done = 단계 달성: { $step }
lab-plain-step-undone = 단계가 미달성으로 돌아갔습니다: { $step }
lab-plain-steps-done = [달성] { $step }
lab-plain-steps-todo = [미달성] { $step }
lab-plain-hint = "{ $step }"의 힌트 { $n }: { $text }
lab-plain-no-hint = 이 단계의 힌트는 더 없습니다. :solution을 입력하면 풀이를 보여 줍니다.
lab-plain-all-done = 모든 단계를 달성했습니다. 힌트가 필요 없습니다.
lab-plain-solution = 풀이:
lab-plain-unknown = { $cmd } 명령은 없습니다. 쓸 수 있는 명령: :steps, :hint, :solution, :quit
