# 랩 샌드박스와 감독 프로세스
lab-login-broken = 새 로그인이 시작하자마자 매번 종료되어(마지막 종료 상태: { $status }) 로그인을 중단했습니다. 시작 파일(/etc/environment, /etc/profile, /etc/profile.d/*, ~/.profile, ~/.bashrc) 중 하나가 셸을 종료시키는 것으로 보입니다. F5 키를 눌러 머신을 초기화하세요.
check-path-dot-segment = "{ $path }"에 "." 또는 ".." 요소가 들어 있습니다. /etc/profile.d/rocm.sh처럼 실습 컴퓨터 안의 있는 그대로의 절대 경로로 쓰세요.
check-file-simulator-own = "{ $path }"은(는) { $folder } 안에 있습니다. 이곳은 시뮬레이션 머신 자체(상태와 검사)의 폴더라 팩에서 파일을 둘 수 없습니다. 머신 설정은 [machine]에 쓰세요.
check-path-nul = "{ $path }"에 NUL 문자가 들어 있습니다. 경로에는 NUL 문자를 쓸 수 없습니다.
check-mode-special = "{ $mode }"은(는) setuid, setgid 또는 스티키 비트를 설정합니다. 실습 파일에는 쓸 수 없으니 "0644"나 "0755"처럼 패키지가 보통 설치하는 모드를 쓰세요.
lab-file-through-link = 실습 파일 { $path }이(가) 컴퓨터 안의 심볼릭 링크를 거쳐 쓰이게 됩니다. 링크가 아닌 실제 경로로 지정하세요.
lab-unconfined = 참고: 이 커널에는 Landlock이 없어 머신 상태를 직접 고치는 것을 막을 수 없습니다. 랩은 동작하지만 결과는 변조 방지가 되지 않으며, 진행 기록에도 그렇게 표시됩니다.
lab-on-disk = 참고: 이 시스템에서는 bubblewrap이 권한을 주지 않아 실습 머신을 메모리에 둘 수 없었습니다. 작성한 내용은 이 컴퓨터 디스크의 임시 폴더에 저장되며, 실습이 끝나면 삭제됩니다.
lab-tool-no-login = { $tool }: 이 프로세스는 실습 머신의 어느 로그인에도 속하지 않습니다(실행한 셸보다 오래 남아 있습니다). 셸에서 실행하세요.
lab-tool-unreachable = { $tool }: 실습 머신에 연결할 수 없습니다({ $error }). exit로 로그아웃한 뒤 새 로그인에서 실행하세요.
