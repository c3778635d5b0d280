# 間隔をあけた復習 (`review`) と試験 (`exam`)。

cli-review = 復習の時期が来たものを出題する(まちがえた問題はもう一度、達成できなかった演習のステップはドリルで)
cli-review-drill = 達成できなかった演習のステップを 1 つドリルする(`review` の一覧の書き方で: lab:ID/STEP)
cli-review-script = FILE の各行(- なら標準入力)をドリルのシェルに入力し、採点する
review-bad-now = { $name } の値「{ $value }」は時刻として読めません。UTC の RFC 3339 形式で書いてください(例: 2027-03-01T09:00:00Z)。
review-none-scheduled = 復習するものはまだありません。問題に答えたり演習のステップに取り組んだりすると、ここに入ります。
review-none-due-until = いま復習の時期が来ているものはありません。次は { $when } です。
review-intro = 復習の時期が来たもの: 問題 { $questions } 問、演習のステップ { $steps } 個。選択肢の番号か英字で答えてください。入力を終える(Ctrl-D)と中断でき、それまでの解答は保存されます。
review-question-of = 復習 { $total } 問中 { $n } 問目({ $quiz } から)
review-score = 復習完了: { $total } 問中 { $score } 問正解。まちがえた問題は早めに、正解した問題は間隔をあけて、また出題されます。
review-drills = ドリルする演習のステップ({ $count } 個): どれも演習のマシンで、そのステップだけに取り組みます。
review-drill-unknown = 演習のステップ「{ $drill }」はありません。`rocm-learn review` の一覧の書き方で指定してください(例: lab:hsa-init-failed/add-groups)。
review-drill-needs-script = ドリルはコマンドをファイルから読みます。--script FILE を付けるか、標準入力から打つなら --script - を付けてください。
review-drill-met = ドリル完了: ステップを達成しました。
review-drill-unmet = ドリル未完了: ステップはまだ達成されていません。復習の対象に残るので、もう一度挑戦できます。
cli-exam = 試験を受ける(クイズから出題、制限時間と合格点あり)
cli-exam-id = 試験の ID(パックの exams/ フォルダを参照。組み込み: rocm-deploy)
exam-plain-intro = 試験: { $title }。全 { $count } 問、制限時間 { $minutes } 分、合格点 { $percent }%。ヒントはありません。解説は最後にまとめて表示します。選択肢の番号か英字で答えてください。
exam-question-of = 第 { $n } 問 / 全 { $total } 問   { $left }
exam-time-up = 時間切れです。答えていない問題は不正解として数えます。
exam-passed = 合格: { $total } 問中 { $score } 問正解(合格点 { $percent }%)、所要時間 { $used } / { $limit }。
exam-failed = 不合格: { $total } 問中 { $score } 問正解(合格点 { $percent }%)、所要時間 { $used } / { $limit }。
exam-explained = 全問の解説:
exam-unanswered = 未解答です。正解とその理由:
exam-no-questions = 試験「{ $id }」の出題元のクイズがこのコースにないため、出題できる問題がありません。
check-exam-stray-file = exams/ に置けるのは .toml ファイルだけです。このファイルは無視します。
check-exam-duplicate = ID が「{ $id }」の試験が 2 つあります。試験ごとに別の ID を付けてください。
check-exam-no-quizzes = 出題元のクイズが指定されていません。from = ["QUIZ-ID", ...] を追加してください。
check-exam-missing = 試験に { $key } がありません。追加してください(docs/review.md を参照)。
check-exam-range = { $key } は { $min } 以上 { $max } 以下にしてください。
report-missed = よくまちがえられたところ(間隔をあけた復習の集計)
report-missed-count = { $learners } 人が計 { $misses } 回まちがえた。いま復習の時期が来ているのは { $due } 人
progress-review-due = いま復習の時期が来ているもの: { $count } 件(rocm-learn review)
progress-exam-passed = 試験 { $id }: 合格、{ $total } 問中 { $score } 問正解、所要時間 { $used } / { $limit }({ $date })
progress-exam-failed = 試験 { $id }: 不合格、{ $total } 問中 { $score } 問正解、所要時間 { $used } / { $limit }({ $date })
