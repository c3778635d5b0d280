# 실습: 샌드박스, 셸, 체크리스트

lab-no-bwrap = 실습 셸은 bubblewrap 안에서 실행되는데, bubblewrap이 설치되어 있지 않습니다. 설치한 뒤(Debian·Ubuntu: sudo apt install bubblewrap, Fedora: sudo dnf install bubblewrap, Arch: sudo pacman -S bubblewrap) 실습을 다시 여세요. rocm-learn은 샌드박스 없이 실습 셸을 실행하지 않습니다.
lab-userns-apparmor = 이 환경에서는 bubblewrap이 사용자 네임스페이스를 만들 수 없습니다. AppArmor가 비특권 사용자 네임스페이스를 제한하고 있습니다(Ubuntu 24.04 기본값). sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0으로 전체에 허용하거나, "userns"를 허용하는 bwrap용 AppArmor 프로필을 만드세요(/etc/apparmor.d/ 참고). bubblewrap 메시지: { $error }
lab-userns-disabled = 이 시스템에서는 bubblewrap이 네임스페이스를 만들 수 없습니다. 사용자 네임스페이스가 꺼져 있는 것 같습니다. sudo sysctl -w kernel.unprivileged_userns_clone=1(또는 user.max_user_namespaces를 1 이상으로)로 켜거나, 허용된 컴퓨터에서 rocm-learn을 실행하세요. bubblewrap 메시지: { $error }
lab-bwrap-failed = bubblewrap이 실습 샌드박스를 시작하지 못했습니다: { $error }. rocm-learn은 샌드박스 없이 실습 셸을 실행하지 않습니다.
