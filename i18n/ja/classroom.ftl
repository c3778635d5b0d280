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
