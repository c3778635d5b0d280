# 全画面アプリ

app-too-small = rocm-learn を使うには端末のウィンドウを大きくしてください。
home-title = ホーム
home-tagline = AMD の GPU スタック ROCm の動かし方を学びます。ビルに見立てて全体をつかみ、レッスンを読み、クイズで確かめ、演習で実際のデプロイの失敗を直しましょう。
home-continue = 続きから
home-stack = スタック
home-stack-desc = ROCm スタックを 5 階建てのビルで見る
home-lessons = レッスン
home-lessons-desc = 全 { $count } 本、読了 { $read } 本
home-quizzes = クイズ
home-quizzes-desc = 全 { $count } 本、{ $questions } 問
home-labs = 演習
home-labs-desc = サンドボックスのシェルで実際のデプロイの失敗を直す
home-glossary = 用語集
home-glossary-desc = { $count } 語、検索できます
home-progress = 進み具合
home-progress-desc = 学習の記録とリセット

key-move = 移動
key-open = 開く
key-quit = 終了
key-back = 戻る
key-help = ヘルプ
key-lang = 言語
key-ascii = 罫線 / ASCII の切り替え
key-read = 読む
key-scroll = スクロール
key-page = 次のページ
key-next-link = 次のリンク
key-follow = リンクを開く
key-toc = 目次
key-start = 始める
key-retry-wrong = まちがえた問題だけ
key-choose = 選ぶ
key-confirm = 決定
key-continue = 次へ
key-again = もう一度
key-search = 入力して検索
key-definition = 定義
key-floor = 階
key-elevator = エレベーターに乗る
key-elevator-off = エレベーターを降りる
key-step = 進む/戻る
key-reset-one = この項目をリセット
key-reset-all = すべてリセット

help-title = キー操作
popup-close = 何かキーを押すと閉じます。
term-title = 用語集
notice-title = お知らせ
confirm-title = よろしいですか?
confirm-keys = y: はい   ほかのキー: いいえ
toc-title = 目次

lesson-status-new = 未読
lesson-status-started = 読みかけ
lesson-status-read = 読了
reader-next-quiz = 次はクイズ
reader-next-lab = 次は演習
reader-web-link = このリンクは教材の外を指しています: { $url }

quiz-count = 全 { $count } 問
quiz-best = 最高 { $total } 問中 { $best } 問正解、挑戦 { $attempts } 回
quiz-wrong-to-retry = 復習する問題が { $count } 問あります。r キーで始められます。
quiz-next = Enter: 次の問題へ
quiz-see-results = Enter: 結果を見る
quiz-results-keys-wrong = r: まちがえた { $count } 問をやり直す   a: もう一度   q: 戻る

glossary-search = 検索:
glossary-no-match = 一致する用語はありません。
glossary-in-lessons = 登場するレッスン:
floor-lessons = この階についてのレッスン

building-keys = Enter: 構成要素とレッスン   e: 依頼がエレベーターで降りていく様子を見る
elevator-step = 段階 { $n } / { $total } · { $floor } 階
elevator-keys = → 次の階へ   ← 戻る   e: エレベーターを降りる
elevator-done = 結果を持って最上階に戻りました。e: エレベーターを降りる


progress-questions-right = 正解した問題
progress-reset-one = 「{ $title }」の記録を消去しますか?
progress-reset-all = レッスン・クイズ・演習の記録をすべて消去しますか? 元に戻せません。

matrix-title = サポートマトリクス
home-matrix-desc = GPU・OS・ROCm リリースの組み合わせを調べる
matrix-empty = この教材にはサポートマトリクスがありません。
key-next-gpu = 次の GPU
key-matrix = サポートマトリクス
matrix-cell = { $gpu }、{ $os }、ROCm { $release }:{" "}
matrix-supported = サポート対象
matrix-deprecated = 非推奨
matrix-unsupported = サポート対象外
matrix-supported-means = この組み合わせ向けにビルドされ、テストされています。ドライバー、ランタイム、ビルド済みライブラリのすべてにこの GPU 向けのコードがあります。
matrix-deprecated-means = いまは動きますが新機能は入らず、将来のリリースでサポートが外れます。いまのうちに移行を計画しましょう。
matrix-unsupported-means = HIP ランタイムはアプリケーションを動かせることもありますが、ビルド済みの ROCm ライブラリはサポートされず、実行時に失敗することがあります。この GPU 向けのカーネルがない場合の "invalid device function" がその例です。
matrix-unlisted = このリリースにはこの GPU がまったく載っていません。
matrix-wrong-os = このリリースはこの GPU をサポートしますが、この OS ではサポートしません。
