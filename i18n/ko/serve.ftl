# `rocm-learn serve`: 수업 전체에 SSH로 앱을 제공한다.

serve-about = 수업 전체에 SSH로 앱을 제공합니다. 수강생은 자기 키로 로그인하고, 실습은 이 서버에서 실행됩니다
serve-opt-class = 수업 폴더: roster.toml, 호스트 키, 팩, 모든 수강생의 진도를 두는 곳
serve-opt-listen = 수신할 주소와 포트
serve-opt-max-sessions = 동시에 열 수 있는 세션 수의 상한
serve-opt-login-timeout = 연결이 로그인을 마쳐야 하는 시간(초)
serve-no-class = 수업 폴더 { $dir }이(가) 없습니다. 폴더를 만들고 roster.toml을 넣으세요(docs/classroom.md 참고).
serve-roster-unreadable = 명단 { $path }을(를) 읽지 못했습니다: { $why }
serve-roster-bad = { $at }: { $why }
serve-roster-bad-name = { $at }: "{ $name }"은(는) 로그인 이름으로 쓸 수 없습니다. 영문 소문자, 숫자, "-", "_"로 1~32자를 쓰고, 첫 글자는 영문 소문자나 숫자여야 합니다.
serve-roster-twice = { $at }: "{ $name }"이(가) 명단에 두 번 있습니다. 로그인 이름 하나는 한 사람입니다.
serve-roster-bad-key = { $at }: "{ $name }"의 키가 OpenSSH 공개 키 줄이 아닙니다({ $why }). id_ed25519.pub의 줄을 그대로 붙여 넣으세요.
serve-host-key-bad = 서버의 호스트 키 { $path }을(를) 쓸 수 없습니다: { $why }. 다른 곳으로 옮기면 새 키가 만들어집니다(수강생에게는 호스트 키가 바뀌었다고 표시됩니다).
serve-listen-failed = { $addr }에서 수신하지 못했습니다: { $error }
serve-listening = { $dir }의 수업을 { $addr }에서 제공합니다(명단에 { $people }명). Ctrl-C로 멈춥니다.
serve-refused-unknown = 이 이름은 수업 명단에 없습니다. 강사가 알려 준 이름으로 로그인하세요.
serve-full = 지금은 수업 정원이 찼습니다. 몇 분 뒤에 다시 시도하거나 강사에게 알리세요.
serve-needs-terminal = 터미널이 필요합니다. ssh -t로 접속하세요.
serve-not-allowed = 여기서는 쓸 수 없습니다. 앱은 명령 없이 접속하세요. 쓸 수 있는 명령: lab ID, quiz ID, lesson ID, progress [--json|--csv].
serve-app-failed = 서버에서 앱을 시작하지 못했습니다. 강사에게 알리세요.
