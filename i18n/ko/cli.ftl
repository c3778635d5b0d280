# 명령줄: 도움말, 목록 출력, 인자와 콘텐츠 폴더 오류

cli-about = AMD GPU 소프트웨어 스택 ROCm을 운영하는 법을 레슨, 퀴즈, 실습으로 배웁니다(영어, 일본어, 한국어).
cli-usage = 사용법
cli-commands = 명령
cli-options = 옵션
cli-help = 이 도움말을 표시합니다
cli-version = 버전을 표시합니다
cli-lang = 화면과 교재의 언어(기본값: ROCM_LEARN_LANG, 그다음 앱에서 마지막으로 고른 언어, 그다음 시스템 로캘, 없으면 en)
cli-content = 내장 교재 대신 DIR의 콘텐츠 팩(폴더 또는 .tar.gz)을 사용합니다. ROCM_LEARN_CONTENT로도 지정할 수 있습니다
cli-json = 결과를 JSON으로 출력합니다(형식은 README 참고)
cli-csv = 결과를 CSV로 출력합니다
cli-plain = 줄 모드: 선택지에 번호를 붙이고 전체 화면을 쓰지 않습니다(스크린 리더와 스크립트용)
cli-list = 레슨, 퀴즈, 실습 목록을 보여 줍니다
cli-check = 콘텐츠를 검사하고 모든 문제를 path:line:col 형식으로 보고합니다
cli-lesson = 레슨을 읽습니다
cli-lesson-id = 레슨 ID(`rocm-learn list`로 확인)
cli-quiz = 퀴즈를 풉니다
cli-quiz-id = 퀴즈 ID(`rocm-learn list`로 확인)
cli-retry-wrong = 지난번에 틀린 문제만 다시 풉니다
cli-lab = 실습을 엽니다
cli-lab-id = 실습 ID(`rocm-learn list`로 확인)
cli-script = FILE의 각 줄을 실습 셸에 입력하고 결과를 채점합니다
cli-progress = 학습 진도를 보여 주거나 내보냅니다
cli-report = 내보낸 진도 파일들로 반 전체 요약을 만듭니다
cli-report-files = `rocm-learn progress --json`으로 내보낸 진도. 파일, 그 파일을 모은 폴더(반 제출 폴더 등), 또는 표준 입력을 뜻하는 -
cli-doctor = 이 컴퓨터의 실제 ROCm 설정을 점검합니다(읽기 전용)
cli-learner = 내보낸 진도에 적을 이름(저장됨, 기본값: 로그인 이름)
cli-progress-reset = 한 항목 또는 모든 진도를 지웁니다
cli-reset-id = 레슨·퀴즈·실습 ID. 레슨과 퀴즈가 같은 ID를 쓰면 종류를 붙입니다(quiz:history). 생략하면 전부
cli-yes = 확인을 묻지 않습니다
cli-bad-env-lang = ROCM_LEARN_LANG이 "{ $value }"(으)로 설정되어 있지만 rocm-learn이 지원하는 언어(en, ja, ko)가 아니므로 무시합니다.
cli-not-yet = { $what ->
    [app] 전체 화면 앱은 아직 사용할 수 없습니다. `rocm-learn list`, `rocm-learn lesson ID`, `rocm-learn quiz ID`를 사용해 보세요.
   *[other] `rocm-learn { $what }`은(는) 아직 사용할 수 없습니다.
}
cli-plain-hint = 전체 화면 앱은 터미널에서 rocm-learn을 실행하면 쓸 수 있습니다. 여기서는 줄 단위로 동작하는 rocm-learn lesson ID, rocm-learn quiz ID, rocm-learn lab ID를 쓰세요.
cli-unknown-id = "{ $id }"라는 { $kind ->
    [lesson] 레슨
    [quiz] 퀴즈
    [lab] 실습
    [item] 항목
   *[other] { $kind }
}은(는) 없습니다. 사용할 수 있는 ID: { $known }
cli-content-has-errors = 콘텐츠에 오류가 { $count }개 있습니다. 고친 다음 `rocm-learn check`로 확인하세요.

content-dir-missing = 콘텐츠 폴더 { $dir }이(가) 없습니다.
content-dir-empty = { $dir }에 콘텐츠 폴더({ $expected })가 하나도 없습니다. 폴더를 제대로 지정했는지 확인하세요.
content-unreadable = 읽을 수 없습니다: { $error }
content-not-utf8 = UTF-8 텍스트가 아닙니다. UTF-8로 다시 저장하세요.
content-too-large = { $max }바이트를 넘어 콘텐츠 파일로는 너무 큽니다.
hostfs-link = 은(는) 심볼릭 링크입니다. 여기서는 링크를 따라가지 않습니다. 파일 자체를 폴더에 넣으세요.
hostfs-not-regular = 은(는) 일반 파일이 아닙니다({ $kind }). 일반 파일만 읽습니다.
hostfs-too-large = 은(는) { $max }바이트를 넘어 읽지 않았습니다.
hostfs-too-many = 에 항목이 { $max }개를 넘습니다. 폴더의 나머지는 읽지 않았습니다.
hostfs-too-deep = 은(는) 폴더 깊이가 { $max }단계를 넘어 읽지 않았습니다.
hostfs-too-much = 을(를) 읽으면 합계가 { $max }바이트를 넘습니다. 폴더의 나머지는 읽지 않았습니다.
hostfs-deadline = 을(를) 읽는 데 { $secs }초 넘게 걸렸습니다. 폴더의 나머지는 읽지 않았습니다.

list-lessons = 레슨
list-quizzes = 퀴즈
list-labs = 실습
list-none-yet = (아직 없음)
list-quiz-line = { $title }(총 { $count }문제)

progress-corrupt = 진도 파일 { $path }을(를) 읽을 수 없어서 { $moved }(으)로 옮기고 새로 기록을 시작했습니다. 삭제한 것은 없습니다.
progress-too-new = { $path }은(는) 더 새로운 rocm-learn(형식 { $version })이 저장한 파일입니다. 계속 사용하려면 rocm-learn을 업데이트하세요. 파일은 건드리지 않았습니다.
progress-no-home = 진도를 저장할 폴더를 찾지 못했습니다. 쓰기 가능한 폴더를 { $env }에 지정하세요.
progress-read-failed = { $path }을(를) 읽지 못했습니다: { $error }
progress-write-failed = 진도를 { $path }에 저장하지 못했습니다: { $error }. 이번 답안은 그대로 유효합니다. 폴더 권한을 확인하거나 ROCM_LEARN_DATA_DIR을 지정하세요.

progress-summary-title = { $name }의 진도
progress-status-not-started = 시작 전
progress-status-started = 진행 중
progress-status-done = 완료
progress-learner-saved = 앞으로 내보내는 진도에 "{ $name }"(이)라고 적습니다.
progress-reset-confirm-one = { $id }의 진도를 지울까요?
progress-reset-confirm-all = 레슨, 퀴즈, 실습 진도를 모두 지울까요?
progress-reset-need-yes = 초기화하려면 확인이 필요합니다. 터미널에서 실행해 답하거나 --yes를 붙이세요.
progress-reset-done = 완료: 해당 진도를 지웠습니다.
report-title = 반 보고서: 학습자 { $count }명{ $skipped ->
    [0] {""}
   *[other] (건너뜀 { $skipped }개)
}
report-col-learner = 학습자
report-col-lessons = 레슨
report-col-quizzes = 퀴즈
report-col-right = 정답
report-col-labs = 실습
report-hardest = 어려웠던 문제
report-wrong-of = 학습자 { $answered }명 중 { $wrong }명이 틀림
report-top-wrong = 가장 많이 고른 오답: { $n }) { $option } ({ $times }회)
report-stuck = 실습에서 막힌 곳
report-stuck-count = { $count }명이 여기서 막힘
report-none = (없음)
report-skipped = { $file }: rocm-learn 진도 파일이 아니라서 건너뜁니다({ $reason }).
report-no-files = 진도 파일이 하나도 없습니다. 학습자에게 `rocm-learn progress --json > NAME.json`을 실행하게 하세요.
cli-report-json = 보고서를 JSON으로 출력합니다(스키마는 README에 있습니다)
cli-report-lrs = 파일 대신 학습 기록 저장소(ROCM_LEARN_LRS)에서 보고서를 만듭니다
cli-report-trust-new-keys = 학습자가 전에 쓰지 않은 키로 서명된 파일도 집계합니다(두 번째 머신 등)
cli-report-class = rocm-learn serve의 수업 폴더. 그 서버가 서명한 결과를 서버에서 판정한 것으로 표시합니다(수업 폴더 안의 submit 폴더를 넘기면 지정하지 않아도 됨)
cli-lrs = 학습 기록 저장소(xAPI): 수업 결과를 보내는 곳
cli-lrs-status = 대기 중인 스테이트먼트를 보내고, 아직 대기 중인 수와 이유를 표시합니다
