# `rocm-learn serve`: 연결이 끊겨도 남는 세션, 한도, 랩 메모리 예산.

serve-reattached = 다시 연결했습니다: 세션이 그대로 남아 있습니다
serve-refused-sessions = 이미 세션 { $n }개를 열어 두었습니다(최대 { $max }개). 먼저 하나를 종료하세요. 연결이 끊긴 세션은 다시 로그인하면 이어집니다.
serve-refused-connections = 지금 { $name }의 연결이 너무 많습니다. 쓰지 않는 연결을 닫고 다시 시도하세요.
serve-refused-busy = 지금 수업 서버에 연결이 너무 많습니다. 1분쯤 뒤에 다시 시도하거나 강사에게 알리세요.
serve-opt-keep-detached = 학습자의 연결이 끊긴 뒤 세션을 남겨 두는 시간(분). 다음 로그인에서 다시 이어집니다(기본값 10, 0이면 남기지 않음)
serve-opt-max-startups = 로그인 전 연결 수: START를 넘으면 새 연결을 RATE% 확률로 끊고, FULL에서는 모두 끊습니다(기본값 10:30:100, sshd의 MaxStartups와 같음)
serve-opt-per-source = 한 주소에서 동시에 받는 로그인 전 연결 수(기본값 5. 수업 전체가 한 주소에서 접속하면 --max-startups와 함께 늘리세요)
serve-opt-sessions-per-learner = 학습자 한 명이 동시에 열 수 있는 세션 수(기본값 3)
serve-opt-lab-memory = 열려 있는 랩 전체가 쓸 수 있는 메모리(MiB)(기본값: 이 머신 메모리의 절반)
serve-class-detached = 보관 { $n }분 남음
serve-labs-full = 지금 수업 서버가 랩으로 가득 찼습니다. 다른 학습자의 랩이 메모리를 쓰고 있습니다. 몇 분 뒤에 다시 시도하거나 강사에게 알리세요.

serve-mirror-help-asked = { $name } 님에게 입력 허락을 요청했습니다. 상대의 허락(상대 쪽 F9)을 기다리는 중. F9: 취소
serve-mirror-helping = { $name } 님의 허락으로 입력 중: 키 입력이 상대 세션으로 갑니다. F9: 입력 그만두기
serve-help-asked = 강사가 세션에 입력하도록 허락을 요청합니다: F9로 허락
serve-help-on = 강사가 함께 입력하는 중입니다: F9로 끝내기
