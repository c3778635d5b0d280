# コマンドライン: ヘルプ、一覧表示、引数とコンテンツフォルダーのエラー

cli-about = AMD の GPU ソフトウェアスタック ROCm の動かし方を、レッスン・クイズ・ハンズオン演習で学びます(英語・日本語・韓国語)。
cli-usage = 使い方
cli-commands = コマンド
cli-options = オプション
cli-help = このヘルプを表示する
cli-version = バージョンを表示する
cli-lang = 画面と教材の言語(省略時は ROCM_LEARN_LANG、次にアプリで最後に選んだ言語、次にシステムのロケール、なければ en)
cli-content = 組み込みの教材の代わりに DIR のコンテンツパック(フォルダーまたは .tar.gz)を使う。ROCM_LEARN_CONTENT でも指定できます
cli-json = 結果を JSON で出力する(形式は README を参照)
cli-csv = 結果を CSV で出力する
cli-plain = 行モード: 選択肢に番号を振り、全画面表示を使わない(スクリーンリーダーやスクリプト向け)
cli-list = レッスン・クイズ・演習の一覧を表示する
cli-check = コンテンツを検査し、問題をすべて path:line:col の形式で報告する
cli-lesson = レッスンを読む
cli-lesson-id = レッスンの ID(`rocm-learn list` で確認できます)
cli-quiz = クイズに挑戦する
cli-quiz-id = クイズの ID(`rocm-learn list` で確認できます)
cli-retry-wrong = 前回まちがえた問題だけを出題する
cli-lab = ハンズオン演習を開く
cli-lab-id = 演習の ID(`rocm-learn list` で確認できます)
cli-script = FILE の各行を演習のシェルに入力し、結果を採点する
cli-progress = 学習の進み具合を表示・書き出す
cli-report = 書き出された進捗ファイルからクラス全体の集計を作る
cli-report-files = `rocm-learn progress --json` で書き出した進捗。ファイル、それを集めたフォルダー(クラスの提出フォルダーなど)、または標準入力を表す -
cli-doctor = このマシンの実際の ROCm 環境を検査する(読み取りのみ)
cli-learner = 書き出す進捗に記す名前(保存されます。省略時はログイン名)
cli-progress-reset = 1 項目、またはすべての進捗を消去する
cli-reset-id = レッスン・クイズ・演習の ID。レッスンとクイズで同じ ID のときは種類を付ける(quiz:history)。省略するとすべて
cli-yes = 確認しない
cli-bad-env-lang = ROCM_LEARN_LANG に「{ $value }」が設定されていますが、rocm-learn が対応する言語(en、ja、ko)ではないため無視します。
cli-not-yet = { $what ->
    [app] 全画面アプリはまだ使えません。`rocm-learn list`、`rocm-learn lesson ID`、`rocm-learn quiz ID` をお試しください。
   *[other] `rocm-learn { $what }` はまだ使えません。
}
cli-plain-hint = 全画面アプリは端末で rocm-learn を起動すると使えます。ここでは行単位で動く rocm-learn lesson ID、rocm-learn quiz ID、rocm-learn lab ID をお使いください。
cli-unknown-id = 「{ $id }」という{ $kind ->
    [lesson] レッスン
    [quiz] クイズ
    [lab] 演習
    [item] 項目
   *[other] { $kind }
}はありません。使える ID: { $known }
cli-content-has-errors = コンテンツに { $count } 件のエラーがあります。修正してから `rocm-learn check` で確認してください。

content-dir-missing = コンテンツフォルダー { $dir } がありません。
content-dir-empty = { $dir } にはコンテンツ用のフォルダー({ $expected })がひとつもありません。フォルダーの指定は正しいですか?
content-unreadable = 読み込めませんでした: { $error }
content-not-utf8 = UTF-8 のテキストではありません。UTF-8 で保存し直してください。
content-too-large = { $max } バイトを超えており、コンテンツファイルとしては大きすぎます。
hostfs-link = はシンボリックリンクです。ここではリンクをたどりません。ファイルそのものをフォルダーに置いてください。
hostfs-not-regular = は通常のファイルではありません({ $kind })。読み込むのは通常のファイルだけです。
hostfs-too-large = は { $max } バイトを超えているため、読み込みませんでした。
hostfs-too-many = には { $max } 個を超える項目があります。フォルダーの残りは読み込んでいません。
hostfs-too-deep = はフォルダーの階層が { $max } 段より深いため、読み込みませんでした。
hostfs-too-much = を読み込むと合計が { $max } バイトを超えます。フォルダーの残りは読み込んでいません。
hostfs-deadline = の読み込みに { $secs } 秒以上かかりました。フォルダーの残りは読み込んでいません。

list-lessons = レッスン
list-quizzes = クイズ
list-labs = 演習
list-none-yet = (まだありません)
list-quiz-line = { $title }(全 { $count } 問)

progress-corrupt = 進捗ファイル { $path } を読み取れなかったため、{ $moved } に移して新しく記録を始めました。削除したものはありません。
progress-too-new = { $path } は新しいバージョンの rocm-learn(形式 { $version })で書かれています。引き続き使うには rocm-learn を更新してください。ファイルには手を加えていません。
progress-no-home = 進捗を保存するフォルダーが見つかりません。書き込みできるフォルダーを { $env } に設定してください。
progress-read-failed = { $path } を読み込めませんでした: { $error }
progress-write-failed = 進捗を { $path } に保存できませんでした: { $error }。今回の解答は有効です。フォルダーの権限を確認するか、ROCM_LEARN_DATA_DIR を設定してください。

progress-summary-title = { $name } の進捗
progress-status-not-started = 未着手
progress-status-started = 途中
progress-status-done = 完了
progress-learner-saved = 以後の書き出しには「{ $name }」と記します。
progress-reset-confirm-one = { $id } の進捗を消去しますか?
progress-reset-confirm-all = レッスン・クイズ・演習の進捗をすべて消去しますか?
progress-reset-need-yes = リセットには確認が必要です。端末で実行して確認に答えるか、--yes を付けてください。
progress-reset-done = 完了: その進捗を消去しました。
report-title = クラスレポート: 受講者 { $count } 人{ $skipped ->
    [0] {""}
   *[other] (スキップ { $skipped } 件)
}
report-col-learner = 受講者
report-col-lessons = レッスン
report-col-quizzes = クイズ
report-col-right = 正解
report-col-labs = 演習
report-hardest = 難しかった問題
report-wrong-of = { $answered } 人中 { $wrong } 人がまちがえました
report-top-wrong = 最も多かった誤答: { $n }) { $option }({ $times } 回)
report-stuck = 演習でつまずいたところ
report-stuck-count = { $count } 人がここで止まっています
report-none = (なし)
report-skipped = { $file }: rocm-learn の進捗ファイルではないためスキップしました({ $reason })。
report-no-files = 進捗ファイルがひとつもありません。受講者に `rocm-learn progress --json > NAME.json` を実行してもらってください。
cli-report-json = レポートを JSON で出力します(スキーマは README にあります)
cli-report-lrs = ファイルの代わりに学習記録ストア(ROCM_LEARN_LRS)からレポートを作ります
cli-report-trust-new-keys = 受講者がこれまで使っていない鍵で署名されたファイルも集計します(2 台目のマシンなど)
cli-report-class = rocm-learn serve のクラスフォルダー。そのサーバーが署名した結果を「クラスサーバーで判定」と示します (クラスフォルダー内の submit フォルダーを渡せば指定は不要)
cli-lrs = 学習記録ストア(xAPI): クラスの結果の送信先
cli-lrs-status = 待機中のステートメントを送信し、なお待機している数と理由を表示する
