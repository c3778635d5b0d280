# 演習画面: 端末の下の帯、課題の説明パネル、スクリプトでの実行。

labui-step = 手順 { $n }/{ $total }:
labui-not-yet = まだ完了していません。F4 で課題の説明とチェックリスト全体を、F2 でヒントを表示します。
labui-key-briefing = 説明
labui-key-close = 閉じる
labui-panel-title = 課題の説明とチェックリスト
labui-solution-ask = 解答を表示しますか? 自分で解きたい場合は、先にヒント (F2) を試してください。
labui-too-small = この演習には { $w }x{ $h } 以上のウィンドウが必要です。ターミナルのウィンドウを大きくしてください。
labui-line-timeout = { $n } 行目が { $secs } 秒たっても終わらないため、次の行を入力します。
labui-no-prompt = ログインから { $secs } 秒たってもプロンプトが表示されないため、スクリプトをそのまま入力します。
cli-line-timeout = スクリプト (または --plain の入力) 1 行あたりの実行時間の上限 (秒、既定値 60)。出力がなくても、シェルがプロンプトに戻るまで各行の終了を待ちます。ターミナルからの入力を待っているプログラム (apt の [Y/n] など) にだけ、次の行を早めに渡します。
labui-key-next = 次へ
labui-key-way = 進め方
labui-way-guided = ガイドあり: チェックリストが各ステップを示します。
labui-way-challenge = チャレンジ: 目標は達成したときにチェックリストに現れます。ヒントの使用回数は記録されます。
labui-way-switch = { $way } 最初のコマンドの前なら F7 で進め方を切り替えられます。
labui-goals = 達成した目標: { $done }/{ $total }
labui-goals-hidden = 見つけるべき目標があと { $n } 個あります。
labui-hints-used = 使ったヒント: { $n }
labui-challenge-not-yet = 何が問題かを突き止めて直しましょう。F4: ブリーフィングと達成した目標、F2: ヒント(回数を記録)。
labui-learned = 学んだこと: { $text }
labui-next = F6 で次へ進みます: { $title }
