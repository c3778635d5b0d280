# `rocm-learn check` の診断メッセージ。どれも「path:line:col: error:」に続けて表示される。

check-summary = エラー { $errors } 件、警告 { $warnings } 件(レッスン { $lessons } 本、クイズ { $quizzes } 本・全 { $questions } 問、演習 { $labs } 本、用語 { $terms } 語)。
check-toml-syntax = TOML の書式が正しくありません: { $detail }
check-ftl-syntax = この Fluent ファイルは解析できません: { $detail }

check-missing-key = { check-what } に `{ $key }` がありません。追加してください。
check-unknown-key = { check-what } に不明なキー `{ $key }` があります。使えるキー: { $expected }
check-wrong-type = `{ $key }` は{ $expected ->
    [integer] 整数
    [array] 配列
    [boolean] 真偽値(true か false)
    [table] テーブル
    [array-of-tables] テーブルの配列([[...]])
    [languages] 言語ごとのテーブル(en、ja、ko)か文字列
   *[other] 文字列
}で書いてください({ $found ->
    [integer] 整数
    [array] 配列
    [boolean] 真偽値
    [table] テーブル
    [float] 小数
    [datetime] 日付
   *[other] 文字列
}になっています)。
check-bad-id = 「{ $id }」は ID として使えません。英小文字・数字・ハイフンで書いてください(例: "hsa-init-failed")。
check-duplicate-id = { check-kind } ID「{ $id }」は { $first } ですでに使われています。
check-empty-text = `{ $key }` が空です。本文を書くか、キーごと削除してください。
check-unknown-lang = 「{ $lang }」は教材の言語ではありません。en、ja、ko のいずれかを使ってください。
check-missing-translation = `{ $key }` に{ $lang ->
    [ja] 日本語
    [ko] 韓国語
   *[en] 英語
}({ $lang })のテキストがありません。学習者には別の言語で表示されます。
check-dangling-ref = ID が「{ $id }」の{ check-kind }はありません。存在する ID: { $known }
check-bad-link = 「{ $link }」は教材内へのリンクとして正しくありません。term:ID、lesson:ID、quiz:ID、lab:ID の形で書いてください。
check-file-missing = このファイルがありません。
check-bad-floor = { $floor } という階はありません。階は 1(ハードウェア)から 5(アプリケーション)までです。
check-floor-missing = { $floor } 階がありません。ビルには 1 階から 5 階までそろっている必要があります。
check-bad-category = 「{ $category }」は用語集のカテゴリではありません。次のいずれかを使ってください: { $expected }
check-quiz-empty = クイズ「{ $id }」に問題がありません。[[questions]] テーブルを 1 つ以上追加してください。
check-quiz-stray-file = quizzes/ に置けるのは .toml ファイルだけです。このファイルは読み込まれません。
check-too-few-options = 問題「{ $id }」には選択肢が 2 つ以上必要です。
check-too-many-options = 問題「{ $id }」の選択肢が { $max } 個を超えています。1 つのキーで答えられる数に収めてください。
check-correct-count = 問題「{ $id }」の正解が{ $count ->
    [0] ひとつもありません
   *[other] { $count } 個あります
}。`correct = true` はちょうど 1 つの選択肢に付けてください。
check-option-no-why = この選択肢には解説がありません。`why` に、正しい理由か、まちがいにつながる誤解を書いてください。
check-no-front-matter = レッスンファイルは +++ 行で囲んだフロントマターで始め、少なくとも `title = "..."` を書いてください。
check-front-matter-unclosed = フロントマターが閉じていません。後ろに +++ だけの行を追加してください。
check-lesson-no-meta = このレッスンフォルダーには lesson.toml(少なくとも `id = "..."`)がありません。
check-lesson-no-text = レッスン「{ $id }」にはどの言語の本文もありません。en.md、ja.md、ko.md のいずれかを追加してください。
check-lesson-missing-lang = レッスン「{ $id }」には{ $lang ->
    [ja] 日本語
    [ko] 韓国語
   *[en] 英語
}の本文がまだありません({ $file })。
check-lesson-bad-lang-file = 「{ $name }」はレッスンの言語ファイルとして認識できません。en.md、ja.md、ko.md のいずれかの名前にしてください。
check-lesson-stray-file = レッスンはフォルダー(lessons/NN-name/)に置きます。このファイルは読み込まれません。
check-ftl-file-missing = { $file } がありません。UI テキストのファイルには、パックが対応を約束する各言語(pack.toml の `languages`)の版が必要です。
check-ftl-missing-id = メッセージ「{ $id }」が { $file }({ $lang })にありません。画面のその部分が英語で表示されてしまいます。
check-ftl-extra-id = メッセージ「{ $id }」は英語のファイルにないため、表示されることはありません。
check-ftl-no-english = 「{ $name }」には英語版がないため、そのメッセージは表示されません。
check-ftl-stray-file = 読み込むのは i18n/en、i18n/ja、i18n/ko の .ftl ファイルだけです。このファイルは読み込まれません。
check-literal-emphasis = この ** や __ は強調にならず、文字のまま表示されます。CommonMark では「。」や「)」などの句読点の直後に文字が続くと強調が閉じません。句読点を外に出してください: **強調**。
check-bad-status = 「{ $status }」はサポート状況として使えません。supported、deprecated、unsupported のいずれかにしてください。
check-bad-mode = 「{ $mode }」はファイルモードとして読めません。"0644" や "0755" のように 8 進数で書いてください。
check-path-not-absolute = 「{ $path }」は演習マシン内の絶対パス(例: /home/learner/notes.txt)で書いてください。
check-lab-no-steps = 演習「{ $id }」にステップがありません。チェック付きの [[steps]] テーブルを 1 つ以上追加してください。
check-bad-way = "{ $way }" はラボの進め方ではありません。guided(チェックリストがやることを示す)か challenge(目標だけを、達成したときに表示する)を使ってください。
check-unknown-check = 「{ $check }」は rocm-learn が知らないチェックです。次のいずれかを使ってください: { $expected }

# 診断に差し込まれる対象の名前
check-what = { $what ->
    [lesson] lesson.toml
    [front-matter] フロントマター
    [quiz] クイズ
    [question] 問題
    [option] 選択肢
    [glossary] 用語集
    [term] 用語
    [building] ビルの定義
    [floor] 階
    [component] 構成要素
    [elevator] エレベーター
    [elevator-step] エレベーターの段階
   *[other] { $what }
}
check-kind = { $kind ->
    [lesson] レッスン
    [quiz] クイズ
    [lab] 演習
    [term] 用語
    [question] 問題
    [component] 構成要素
    [floor] 階
    [message] メッセージ
    [os] OS
    [gpu] GPU
    [step] ステップ
   *[other] { $kind }
}
check-terminology = 用語: docs/terminology.md の { $rows } 語を、レッスン、ラボ(説明、ステップ、ヒント、解答)、クイズ、用語集、アプリのメッセージ(ラボの理由を含む)に適用しました。
