# `rocm-learn check`의 진단 메시지. 모두 "path:line:col: error:" 뒤에 붙는다.

check-summary = 오류 { $errors }개, 경고 { $warnings }개(레슨 { $lessons }개, 퀴즈 { $quizzes }개에 문제 { $questions }개, 실습 { $labs }개, 용어 { $terms }개).
check-toml-syntax = TOML 형식이 잘못되었습니다: { $detail }
check-ftl-syntax = 이 Fluent 파일을 해석할 수 없습니다: { $detail }

check-missing-key = { check-what }에 `{ $key }`이(가) 없습니다. 추가하세요.
check-unknown-key = { check-what }에 알 수 없는 키 `{ $key }`이(가) 있습니다. 쓸 수 있는 키: { $expected }
check-wrong-type = `{ $key }`은(는) { $expected ->
    [integer] 정수
    [array] 배열
    [boolean] 불리언(true 또는 false)
    [table] 테이블
    [array-of-tables] 테이블 배열([[...]])
    [languages] 언어별 테이블(en, ja, ko)이나 문자열
   *[other] 문자열
}이어야 합니다(지금은 { $found ->
    [integer] 정수
    [array] 배열
    [boolean] 불리언
    [table] 테이블
    [float] 소수
    [datetime] 날짜
   *[other] 문자열
}입니다).
check-bad-id = "{ $id }"은(는) ID로 쓸 수 없습니다. 영문 소문자, 숫자, 하이픈으로 쓰세요(예: "hsa-init-failed").
check-duplicate-id = { check-kind } ID "{ $id }"은(는) 이미 { $first }에서 쓰고 있습니다.
check-empty-text = `{ $key }`이(가) 비어 있습니다. 내용을 쓰거나 키를 지우세요.
check-unknown-lang = "{ $lang }"은(는) 교재 언어가 아닙니다. en, ja, ko 중 하나를 쓰세요.
check-missing-translation = `{ $key }`에 { $lang ->
    [ja] 일본어
    [ko] 한국어
   *[en] 영어
}({ $lang }) 텍스트가 없습니다. 학습자에게는 다른 언어로 보입니다.
check-dangling-ref = ID가 "{ $id }"인 { check-kind }이(가) 없습니다. 있는 ID: { $known }
check-bad-link = "{ $link }"은(는) 교재 안을 가리키는 올바른 링크가 아닙니다. term:ID, lesson:ID, quiz:ID, lab:ID 형식으로 쓰세요.
check-file-missing = 이 파일이 없습니다.
check-bad-floor = { $floor }층은 없습니다. 층은 1(하드웨어)부터 5(애플리케이션)까지입니다.
check-floor-missing = { $floor }층이 없습니다. 건물에는 1층부터 5층까지 모두 있어야 합니다.
check-bad-category = "{ $category }"은(는) 용어집 분류가 아닙니다. 다음 중 하나를 쓰세요: { $expected }
check-quiz-empty = 퀴즈 "{ $id }"에 문제가 없습니다. [[questions]] 테이블을 하나 이상 추가하세요.
check-quiz-stray-file = quizzes/에는 .toml 파일만 둡니다. 이 파일은 읽지 않습니다.
check-too-few-options = 문제 "{ $id }"에는 선택지가 두 개 이상 필요합니다.
check-too-many-options = 문제 "{ $id }"의 선택지가 { $max }개를 넘습니다. 키 하나로 답할 수 있는 개수로 줄이세요.
check-correct-count = 문제 "{ $id }"에 정답이 { $count ->
    [0] 하나도 없습니다
   *[other] { $count }개 있습니다
}. `correct = true`는 정확히 한 선택지에만 붙이세요.
check-option-no-why = 이 선택지에는 해설이 없습니다. `why`에 정답인 이유나, 오답으로 이끄는 오해를 쓰세요.
check-no-front-matter = 레슨 파일은 +++ 줄로 감싼 머리말로 시작하고, 적어도 `title = "..."`을 써야 합니다.
check-front-matter-unclosed = 머리말이 닫히지 않았습니다. 뒤에 +++만 있는 줄을 추가하세요.
check-lesson-no-meta = 이 레슨 폴더에 lesson.toml(적어도 `id = "..."`)이 없습니다.
check-lesson-no-text = 레슨 "{ $id }"에는 어떤 언어의 본문도 없습니다. en.md, ja.md, ko.md 중 하나를 추가하세요.
check-lesson-missing-lang = 레슨 "{ $id }"에 아직 { $lang ->
    [ja] 일본어
    [ko] 한국어
   *[en] 영어
} 본문이 없습니다({ $file }).
check-lesson-bad-lang-file = "{ $name }"은(는) 레슨 언어 파일로 인식할 수 없습니다. 이름을 en.md, ja.md, ko.md 중 하나로 바꾸세요.
check-lesson-stray-file = 레슨은 폴더(lessons/NN-name/)에 둡니다. 이 파일은 읽지 않습니다.
check-ftl-file-missing = { $file }이(가) 없습니다. UI 텍스트 파일마다 팩이 지원을 약속한 각 언어(pack.toml의 `languages`)의 판이 있어야 합니다.
check-ftl-missing-id = 메시지 "{ $id }"이(가) { $file }({ $lang })에 없습니다. 화면의 그 부분이 영어로 나옵니다.
check-ftl-extra-id = 메시지 "{ $id }"은(는) 영어 파일에 없어서 화면에 나오지 않습니다.
check-ftl-no-english = "{ $name }"에는 영어판이 없어서 그 메시지가 화면에 나오지 않습니다.
check-ftl-stray-file = i18n/en, i18n/ja, i18n/ko의 .ftl 파일만 읽습니다. 이 파일은 읽지 않습니다.
check-literal-emphasis = 이 ** 또는 __는 강조가 되지 않고 글자 그대로 보입니다. CommonMark에서는 。나 ) 같은 문장 부호 바로 뒤에 글자가 이어지면 강조가 닫히지 않습니다. 문장 부호를 밖으로 빼세요: **강조**.
check-bad-status = "{ $status }"은(는) 지원 상태가 아닙니다. supported, deprecated, unsupported 중 하나를 쓰세요.
check-bad-mode = "{ $mode }"은(는) 파일 모드로 읽을 수 없습니다. "0644"나 "0755"처럼 8진수로 쓰세요.
check-path-not-absolute = "{ $path }"은(는) 실습 컴퓨터 안의 절대 경로(예: /home/learner/notes.txt)로 써야 합니다.
check-lab-no-steps = 실습 "{ $id }"에 단계가 없습니다. 검사가 있는 [[steps]] 테이블을 하나 이상 추가하세요.
check-bad-way = "{ $way }"는 랩을 진행하는 방식이 아닙니다. guided(체크리스트가 할 일을 알려 줌) 또는 challenge(목표만, 달성했을 때 보여 줌)를 쓰세요.
check-unknown-check = "{ $check }"은(는) rocm-learn이 모르는 검사입니다. 다음 중 하나를 쓰세요: { $expected }

# 진단에 들어가는 대상의 이름
check-what = { $what ->
    [lesson] lesson.toml
    [front-matter] 머리말
    [quiz] 퀴즈
    [question] 문제
    [option] 선택지
    [glossary] 용어집
    [term] 용어
    [building] 건물 정의
    [floor] 층
    [component] 구성 요소
    [elevator] 엘리베이터
    [elevator-step] 엘리베이터 단계
   *[other] { $what }
}
check-kind = { $kind ->
    [lesson] 레슨
    [quiz] 퀴즈
    [lab] 실습
    [term] 용어
    [question] 문제
    [component] 구성 요소
    [floor] 층
    [message] 메시지
    [os] OS
    [gpu] GPU
    [step] 단계
   *[other] { $kind }
}
check-terminology = 용어: docs/terminology.md의 용어 { $rows }개를 레슨, 랩(설명, 단계, 힌트, 풀이), 퀴즈, 용어집, 앱 메시지(랩의 이유 포함)에 적용했습니다.
