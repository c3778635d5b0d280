# 랩 샌드박스와 감독 프로세스
lab-login-broken = 새 로그인이 시작하자마자 매번 종료되어(마지막 종료 상태: { $status }) 로그인을 중단했습니다. 시작 파일(/etc/environment, /etc/profile, /etc/profile.d/*, ~/.profile, ~/.bashrc) 중 하나가 셸을 종료시키는 것으로 보입니다. F5 키를 눌러 머신을 초기화하세요.
