# 줄 모드의 레슨과 퀴즈, 전체 화면 앱과 함께 쓰는 말

lesson-fallback = (이 레슨은 아직 번역되지 않아 { $lang } 원문을 보여 줍니다.)
lesson-terms-heading = 이 레슨의 용어
lesson-note = 참고:
lesson-next-quiz = 다음 단계, 실력 점검: `rocm-learn quiz { $id }`
lesson-next-lab = 다음 단계, 직접 해 보기: `rocm-learn lab { $id }`
link-lesson = 레슨: rocm-learn lesson { $id }
link-quiz = 퀴즈: rocm-learn quiz { $id }
link-lab = 실습: rocm-learn lab { $id }

category-application = 애플리케이션
category-architecture = 아키텍처
category-operating-system = 운영 체제
category-language = 언어
category-license = 라이선스
category-device = 장치

quiz-plain-intro = 퀴즈: { $title }(총 { $count }문제). 선택지의 번호나 알파벳으로 답하세요. 입력을 끝내면(Ctrl-D) 중단되며, 그때까지의 답은 저장됩니다.
quiz-question-of = { $total }문제 중 { $n }번
quiz-answer-prompt = 답(1-{ $last } 또는 a-{ $lastletter }):
quiz-answer-empty = 선택지의 번호나 알파벳을 입력하고 Enter를 누르세요.
quiz-answer-out-of-range = "{ $input }"에 해당하는 선택지가 없습니다. 1부터 { $last }까지의 번호나 a부터 { $lastletter }까지의 알파벳을 입력하세요.
quiz-answer-unreadable = "{ $input }"은(는) 답으로 읽을 수 없습니다. 1부터 { $last }까지의 번호나 a부터 { $lastletter }까지의 알파벳을 입력하세요.
quiz-right = 정답: { $n }) { $option }
quiz-wrong = 아쉽지만 오답입니다. 고른 답: { $n }) { $option }
quiz-right-was = 정답은 { $n }) { $option }
quiz-score = 점수: { $total }문제 중 { $score }문제 정답
quiz-stopped = { $total }문제 중 { $answered }문제에서 중단했습니다. 지금까지 { $score }문제를 맞혔고, 답은 저장되었습니다.
quiz-stopped-none = 첫 답을 하기 전에 중단했습니다. 기록은 남기지 않았습니다.
quiz-retry-hint = { $count }문제를 틀렸습니다. 틀린 문제만 다시 풀려면: rocm-learn quiz { $id } --retry-wrong
quiz-retry-intro = 지난번에 틀린 { $count }문제를 다시 냅니다.
quiz-retry-none-taken = 아직 이 퀴즈를 푼 적이 없어 다시 풀 문제가 없습니다. 전체 문제를 냅니다.
quiz-retry-nothing = 지난번 답이 모두 정답이었습니다. 다시 풀 문제가 없습니다.
