# すべての選択肢の解説、結果の振り返り、画面の部品(続きがある印)。

quiz-other-option = { $n }) { $option }
quiz-others-heading = ほかの選択肢:
quiz-resumed = 前回の続きから再開します: 第 { $n } 問 / 全 { $total } 問
quiz-review-heading = 振り返り
quiz-review-unanswered = 未解答です。
quiz-results-perfect = 全問正解です! a: もう一度受ける
more-below = 下に続きがあります
more-above = 上に続きがあります
key-review = 振り返りをスクロール
cli-seed = 選択肢をこのシードで並べ替える。同じ順番をくり返し再現できる(0 なら作成時の順番のまま)
key-page-up = 前のページ
key-top-bottom = 先頭 / 末尾
quiz-status-new = 未受験
lab-status-new = 未着手
matrix-legend-unlisted = GPU が載っていない
key-go = 移動
key-close = 閉じる
