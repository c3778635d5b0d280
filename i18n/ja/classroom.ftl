# 教室での利用: 種類付きの ID、進捗の表、コンテンツパック、書き出し、クラスレポート

cli-arguments = 引数
classroom-kind-lesson = レッスン
classroom-kind-quiz = クイズ
classroom-kind-lab = 演習
classroom-col-kind = 種類
classroom-col-id = ID
classroom-col-status = 状態
classroom-col-score = 得点
classroom-col-title = タイトル
classroom-bad-kind = 「{ $spec }」: 「{ $kind }」という種類はありません。lesson:ID、quiz:ID、lab:ID のいずれかで指定してください。
classroom-unknown-item = 「{ $spec }」という項目はありません。指定できるもの: { $known }
classroom-ambiguous-item = 「{ $id }」に当てはまる項目が複数あります: { $choices }。どれか 1 つを指定してください。
classroom-pack-no-manifest = パックに pack.toml がありません。進捗や書き出しではフォルダー名でしか区別できません。`id`・`version`・`title` を書いた pack.toml を追加してください。
classroom-pack-bad-extends = `extends` に指定できるのは "builtin"(組み込みの教材に追加する)だけで、「{ $value }」は指定できません。組み込みの教材を置き換える場合は省略してください。
classroom-not-your-folder = { $dir } の進捗はログイン「{ $owner }」のものです。二人分の記録が混ざらないよう、別のログインからは開きません。{ $env } に自分の名前を設定する(受講者ごとに専用のフォルダーができます)か、ROCM_LEARN_DATA_DIR に自分のフォルダーを指定してください。
classroom-submit-failed = クラスのフォルダー { $dir } に進捗を書き込めませんでした: { $error }。進捗はこのマシンには保存されています。講師に伝えてください。
classroom-report-replaced = 同じ受講者の古い書き出し { $count } 件を、新しいもので置き換えました。
classroom-report-foreign = 集計から除外: { $learner } は別の教材({ $pack })を書き出しています。そのパックの --content を付けてレポートを作ってください。
classroom-report-items = 受講者ごとの項目
classroom-report-first-best = 初回 { $first }/{ $total }、最高 { $best }/{ $total }
classroom-report-minutes = { $n } 分
classroom-report-hints = ヒント { $n } 回
classroom-report-solution-viewed = 解答を表示
classroom-report-by-script = スクリプトで完了
classroom-report-who = 該当者: { $names }
