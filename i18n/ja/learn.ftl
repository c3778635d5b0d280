# 行モードのレッスンとクイズ、全画面アプリと共通のことば

lesson-fallback = (このレッスンはまだ翻訳されていないため、{ $lang } の原文を表示しています。)
lesson-terms-heading = このレッスンの用語
lesson-note = メモ:
lesson-next-quiz = 次は理解度チェック: `rocm-learn quiz { $id }`
lesson-next-lab = 次は手を動かして: `rocm-learn lab { $id }`
link-lesson = レッスン: rocm-learn lesson { $id }
link-quiz = クイズ: rocm-learn quiz { $id }
link-lab = 演習: rocm-learn lab { $id }

category-application = アプリケーション
category-architecture = アーキテクチャ
category-operating-system = OS
category-language = 言語
category-license = ライセンス
category-device = デバイス

quiz-plain-intro = クイズ: { $title }(全 { $count } 問)。選択肢の番号か英字で答えてください。入力を終える(Ctrl-D)と中断でき、それまでの解答は保存されます。
quiz-question-of = 第 { $n } 問 / 全 { $total } 問
quiz-answer-prompt = 解答(1-{ $last } または a-{ $lastletter }):
quiz-answer-empty = 選択肢の番号か英字を入力して Enter を押してください。
quiz-answer-out-of-range = 「{ $input }」という選択肢はありません。1 から { $last } までの番号か、a から { $lastletter } までの英字を入力してください。
quiz-answer-unreadable = 「{ $input }」は解答として読み取れません。1 から { $last } までの番号か、a から { $lastletter } までの英字を入力してください。
quiz-right = 正解: { $n }) { $option }
quiz-wrong = 残念、不正解です。あなたの解答: { $n }) { $option }
quiz-right-was = 正解は { $n }) { $option }
quiz-score = 得点: { $total } 問中 { $score } 問正解
quiz-stopped = 全 { $total } 問中 { $answered } 問で中断しました。ここまでの正解は { $score } 問です。解答は保存されています。
quiz-stopped-none = 最初の解答の前に中断しました。記録は残していません。
quiz-retry-hint = { $count } 問まちがえました。その問題だけを復習するには: rocm-learn quiz { $id } --retry-wrong
quiz-retry-intro = 前回まちがえた { $count } 問をもう一度出題します。
quiz-retry-none-taken = このクイズはまだ受けていないので、復習する問題はありません。全問を出題します。
quiz-retry-nothing = 前回の解答はすべて正解でした。復習する問題はありません。
