# `rocm-learn check`의 교재 작성 규칙: 한 개념에는 한 용어만 쓰고, 정답이 길이로 드러나지 않게 한다.
cli-check-stats = 정답 선택지가 가장 긴 비율을 퀴즈별·언어별로 함께 출력합니다
check-stats-title = 정답 선택지가 다른 어떤 선택지보다 긴 문항의 비율(가장 긴 선택지만 골라도 이만큼 맞힙니다):
check-stats-quiz = 퀴즈
check-stats-course = 전체 과정
check-stats-legend = * 표시는 퀴즈 문항의 3분의 1을 넘었다는 뜻이며, check가 경고합니다.
content-longest-right = { $lang ->
    [ja] 일본어
    [ko] 한국어
   *[en] 영어
}에서 "{ $quiz }"의 문항 { $questions }개 중 { $longest }개는 정답 선택지가 다른 어떤 선택지보다 길어 3분의 1을 넘습니다. 가장 긴 선택지만 골라도 통과할 수 있습니다. 정답을 줄이거나 길이가 비슷한 오답을 쓰세요.
content-term-variant = "{ $variant }"는 이 과정에서 쓰지 않는 표기입니다. "{ $preferred }"(으)로 쓰세요({ $table } 참고).
content-term-bad-row = 이 용어표 행에는 칸이 { $count }개 있습니다. 필요한 칸은 { $expected }개입니다: Term, en, ja, ko, Avoid (en), Avoid (ja), Avoid (ko).
content-term-no-table = 용어표가 없습니다. 표는 머리글 행 { $header }(으)로 시작해야 합니다.
check-cues-longest = 정답이 가장 긴 선택지(길이가 같은 경우 포함, 최대 25%): { $shares }
content-cue-longest = { $lang ->
    [ja] 일본어
    [ko] 한국어
   *[en] 영어
}에서는 과정 전체 문항의 { $share }에서 정답이 가장 긴 선택지(길이가 같은 경우 포함)라서 4분의 1을 넘습니다. 가장 긴 선택지만 골라도 너무 자주 맞힙니다. 눈에 띄게 긴 정답을 줄이거나 오답을 늘리세요.
content-term-unlisted = 용어집의 "{ $term }"({ $name }) 행이 이 표에 없습니다. 언어별 표기와 피할 표기를 적은 행을 추가하세요. 그래야 check가 과정의 표기를 맞출 수 있습니다.
