# 간격을 둔 복습 (`review`)과 시험 (`exam`).

cli-review = 복습할 때가 된 것을 풀기(틀린 문제는 다시, 달성하지 못한 실습 단계는 연습으로)
cli-review-drill = 달성하지 못한 실습 단계 하나를 연습하기(`review` 목록의 표기대로: lab:ID/STEP)
cli-review-script = FILE의 각 줄(-이면 표준 입력)을 연습의 셸에 입력하고 채점하기
review-bad-now = { $name } 값 "{ $value }"은(는) 시각으로 읽을 수 없습니다. UTC RFC 3339 형식으로 쓰세요(예: 2027-03-01T09:00:00Z).
review-none-scheduled = 아직 복습할 것이 없습니다. 문제에 답하거나 실습 단계에 도전하면 여기에 들어옵니다.
review-none-due-until = 지금 복습할 때가 된 것은 없습니다. 다음은 { $when }입니다.
review-intro = 복습할 때가 된 것: 문제 { $questions }개, 실습 단계 { $steps }개. 선택지의 번호나 알파벳으로 답하세요. 입력을 끝내면(Ctrl-D) 중단되며, 그때까지의 답은 저장됩니다.
review-question-of = 복습 { $total }문제 중 { $n }번({ $quiz }에서)
review-score = 복습 완료: { $total }문제 중 { $score }문제 정답. 틀린 문제는 더 빨리, 맞힌 문제는 간격을 두고 다시 나옵니다.
review-drills = 연습할 실습 단계({ $count }개): 모두 실습의 머신에서 그 단계 하나만 해결합니다.
review-drill-unknown = 실습 단계 "{ $drill }"이(가) 없습니다. `rocm-learn review` 목록의 표기대로 지정하세요(예: lab:hsa-init-failed/add-groups).
review-drill-needs-script = 연습은 명령을 파일에서 읽습니다. --script FILE을 붙이거나, 표준 입력으로 치려면 --script -를 붙이세요.
review-drill-met = 연습 완료: 단계를 달성했습니다.
review-drill-unmet = 연습 미완료: 단계를 아직 달성하지 못했습니다. 복습 대상에 남으니 다시 도전할 수 있습니다.
cli-exam = 시험 보기(퀴즈에서 출제, 제한 시간과 합격 점수 있음)
cli-exam-id = 시험 ID(팩의 exams/ 폴더 참고. 내장: rocm-deploy)
exam-plain-intro = 시험: { $title }. 총 { $count }문제, 제한 시간 { $minutes }분, 합격 점수 { $percent }%. 힌트는 없고, 해설은 마지막에 모아서 보여 줍니다. 선택지의 번호나 알파벳으로 답하세요.
exam-question-of = { $total }문제 중 { $n }번   { $left }
exam-time-up = 시간이 끝났습니다. 답하지 않은 문제는 오답으로 셉니다.
exam-passed = 합격: { $total }문제 중 { $score }문제 정답(합격 점수 { $percent }%), 걸린 시간 { $used } / { $limit }.
exam-failed = 불합격: { $total }문제 중 { $score }문제 정답(합격 점수 { $percent }%), 걸린 시간 { $used } / { $limit }.
exam-explained = 모든 문제의 해설:
exam-unanswered = 답하지 않았습니다. 정답과 그 이유:
exam-no-questions = 시험 "{ $id }"의 출제 대상 퀴즈가 이 코스에 없어 출제할 문제가 없습니다.
check-exam-stray-file = exams/에는 .toml 파일만 둘 수 있습니다. 이 파일은 무시합니다.
check-exam-duplicate = ID가 "{ $id }"인 시험이 두 개 있습니다. 시험마다 다른 ID를 붙이세요.
check-exam-no-quizzes = 출제 대상 퀴즈가 없습니다. from = ["QUIZ-ID", ...]를 추가하세요.
check-exam-missing = 시험에 { $key }이(가) 없습니다. 추가하세요(docs/review.md 참고).
check-exam-range = { $key }은(는) { $min } 이상 { $max } 이하여야 합니다.
report-missed = 자주 틀린 곳(간격을 둔 복습 집계)
report-missed-count = { $learners }명이 모두 { $misses }번 틀림. 지금 복습할 때가 된 사람은 { $due }명
progress-review-due = 지금 복습할 때가 된 것: { $count }개(rocm-learn review)
progress-exam-passed = 시험 { $id }: 합격, { $total }문제 중 { $score }문제 정답, 걸린 시간 { $used } / { $limit }({ $date })
progress-exam-failed = 시험 { $id }: 불합격, { $total }문제 중 { $score }문제 정답, 걸린 시간 { $used } / { $limit }({ $date })
