# serve --store와 report --store: 여러 서버가 함께 쓰는 수업 데이터베이스(PostgreSQL).
serve-opt-store = 수업의 다른 서버와 함께 쓰는 수업 데이터베이스. postgres://USER:PASSWORD@HOST:PORT/DB 형식으로 지정합니다(ROCM_LEARN_STORE로도 가능)
cli-report-store = 파일 대신 rocm-learn serve의 수업 데이터베이스(postgres://...)에서 보고서를 만듭니다
store-url-bad = 수업 데이터베이스 주소가 올바르지 않습니다({ $why }). postgres://USER:PASSWORD@HOST:PORT/DB 형식으로 쓰세요.
store-tls-unsupported = 수업 데이터베이스 주소가 TLS를 요구하지만(sslmode=require) 이 rocm-learn은 TLS 없이 연결합니다. 사설 네트워크나 SSH 터널로 데이터베이스에 연결하고 sslmode=require를 빼세요.
store-unreachable = 수업 데이터베이스 { $url }에 연결하지 못했습니다: { $error }
store-failed = 수업 데이터베이스에서 오류가 났습니다: { $error }
store-too-new = 수업 데이터베이스의 스키마 버전은 { $found }로, 이 rocm-learn이 아는 버전({ $known })보다 새것입니다. 설정할 때 쓴 rocm-learn이나 더 새로운 버전을 쓰세요.
store-timeout = 수업 데이터베이스가 { $secs }초 안에 응답하지 않았습니다.
store-empty = 데이터베이스 { $url }에는 아직 수업이 없습니다. 먼저 이 데이터베이스를 --store로 지정해 rocm-learn serve를 시작하세요.
serve-opt-health = 로드 밸런서의 상태 점검용으로 ADDR:PORT에서 HTTP로 응답합니다: 200 ready, 503 draining(SIGTERM 이후)
serve-drain-leave = 이 수업 서버가 종료됩니다. 같은 명령으로 다시 로그인하세요. 지금까지 한 작업은 모두 그대로 두고 다른 서버에서 이어 갑니다.
