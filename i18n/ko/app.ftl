# 전체 화면 앱

app-too-small = rocm-learn을 쓰려면 터미널 창을 더 크게 하세요.
home-title = 홈
home-tagline = AMD GPU 스택 ROCm을 운영하는 법을 배웁니다. 건물로 전체를 파악하고, 레슨을 읽고, 퀴즈로 확인하고, 실습에서 실제 배포 장애를 고쳐 보세요.
home-continue = 이어서 하기
home-stack = 스택
home-stack-desc = ROCm 스택을 5층 건물로 보기
home-lessons = 레슨
home-lessons-desc = 레슨 { $count }개, { $read }개 읽음
home-quizzes = 퀴즈
home-quizzes-desc = 퀴즈 { $count }개, { $questions }문제
home-labs = 실습
home-labs-desc = 샌드박스 셸에서 실제 배포 장애 고치기
home-glossary = 용어집
home-glossary-desc = 용어 { $count }개, 검색 가능
home-progress = 진도
home-progress-desc = 학습 기록과 초기화

key-move = 이동
key-open = 열기
key-quit = 종료
key-back = 뒤로
key-help = 도움말
key-lang = 언어
key-ascii = 선 문자 / ASCII 전환
key-read = 읽기
key-scroll = 스크롤
key-page = 다음 페이지
key-next-link = 다음 링크
key-follow = 링크 열기
key-toc = 목차
key-start = 시작
key-retry-wrong = 틀린 문제만
key-choose = 고르기
key-confirm = 확인
key-continue = 계속
key-again = 다시 풀기
key-search = 입력해서 검색
key-definition = 정의
key-floor = 층
key-elevator = 엘리베이터 타기
key-elevator-off = 엘리베이터 내리기
key-step = 단계 이동
key-reset-one = 항목 초기화
key-reset-all = 전체 초기화

help-title = 키 안내
popup-close = 아무 키나 누르면 닫힙니다.
term-title = 용어집
notice-title = 알림
confirm-title = 정말 할까요?
confirm-keys = y: 예   다른 키: 아니요
toc-title = 목차

lesson-status-new = 읽지 않음
lesson-status-started = 읽는 중
lesson-status-read = 읽음
reader-next-quiz = 다음: 퀴즈
reader-next-lab = 다음: 실습
reader-web-link = 이 링크는 교재 밖을 가리킵니다: { $url }

quiz-count = { $count }문제
quiz-best = 최고 { $total }문제 중 { $best }문제 정답, { $attempts }회 응시
quiz-wrong-to-retry = 다시 풀 문제가 { $count }개 있습니다. r을 누르세요.
quiz-next = Enter: 다음 문제
quiz-see-results = Enter: 결과 보기
quiz-results-keys-wrong = r: 틀린 { $count }문제 다시 풀기   a: 다시 풀기   q: 뒤로

glossary-search = 검색:
glossary-no-match = 일치하는 용어가 없습니다.
glossary-in-lessons = 등장하는 레슨:
floor-lessons = 이 층에 관한 레슨

building-keys = Enter: 구성 요소와 레슨   e: 요청이 엘리베이터로 내려가는 과정 보기
elevator-step = { $total }단계 중 { $n }단계 · { $floor }층
elevator-keys = → 다음 층   ← 이전   e: 엘리베이터 내리기
elevator-done = 결과를 들고 꼭대기 층으로 돌아왔습니다. e: 엘리베이터 내리기


progress-questions-right = 맞힌 문제
progress-reset-one = "{ $title }"의 기록을 지울까요?
progress-reset-all = 레슨, 퀴즈, 실습 기록을 모두 지울까요? 되돌릴 수 없습니다.

matrix-title = 지원 매트릭스
home-matrix-desc = GPU, OS, ROCm 릴리스 조합 찾아보기
matrix-empty = 이 교재에는 지원 매트릭스가 없습니다.
key-next-gpu = 다음 GPU
key-matrix = 지원 매트릭스
matrix-cell = { $gpu }, { $os }, ROCm { $release }:{" "}
matrix-supported = 지원됨
matrix-deprecated = 지원 중단 예정
matrix-unsupported = 지원되지 않음
matrix-supported-means = 이 조합용으로 빌드하고 테스트했습니다. 드라이버, 런타임, 미리 빌드된 라이브러리 모두 이 GPU용 코드를 갖고 있습니다.
matrix-deprecated-means = 지금은 동작하지만 새 기능은 들어가지 않고, 향후 릴리스에서 지원이 빠집니다. 지금부터 이전을 계획하세요.
matrix-unsupported-means = HIP 런타임은 애플리케이션을 실행할 수도 있지만, 미리 빌드된 ROCm 라이브러리는 지원되지 않아 실행 중에 실패할 수 있습니다. 이 GPU용 커널이 없을 때 나오는 "invalid device function"이 그 예입니다.
matrix-unlisted = 이 릴리스에는 이 GPU가 아예 없습니다.
matrix-wrong-os = 이 릴리스는 이 GPU를 지원하지만, 이 운영 체제에서는 지원하지 않습니다.
