# 모든 선택지의 해설, 결과 되짚어 보기, 화면 요소(내용이 더 있다는 표시).

quiz-other-option = { $n }) { $option }
quiz-others-heading = 나머지 선택지:
quiz-resumed = 지난번에 멈춘 곳부터 이어서 풉니다: { $total }문제 중 { $n }번
quiz-review-heading = 되짚어 보기
quiz-review-unanswered = 답하지 않았습니다.
quiz-results-perfect = 모두 맞혔습니다! a: 다시 풀기
more-below = 아래에 더 있음
more-above = 위에 더 있음
key-review = 되짚어 보기 스크롤
cli-seed = 이 시드로 선택지를 섞습니다. 같은 순서를 그대로 다시 볼 수 있습니다(0이면 작성된 순서 그대로)
key-page-up = 이전 페이지
key-top-bottom = 처음 / 끝
quiz-status-new = 아직 풀지 않음
lab-status-new = 아직 시작하지 않음
matrix-legend-unlisted = GPU가 목록에 없음
key-go = 이동
key-close = 닫기
