# `rocm-learn check` の教材執筆ルール: 1 つの概念には 1 つの用語を使い、正解が長さで見抜けないようにする。
cli-check-stats = 正解の選択肢がいちばん長い割合を、クイズごと・言語ごとに表示する
check-stats-title = 正解の選択肢が他のどれよりも長い問題の割合(いちばん長い選択肢を選ぶだけでこの点が取れます):
check-stats-quiz = クイズ
check-stats-course = コース全体
check-stats-legend = * はクイズの問題の 3 分の 1 を超えていることを示します。check が警告します。
content-longest-right = { $lang ->
    [ja] 日本語
    [ko] 韓国語
   *[en] 英語
}では、「{ $quiz }」の { $questions } 問中 { $longest } 問で正解の選択肢が他のどれよりも長く、3 分の 1 を超えています。いちばん長い選択肢を選ぶだけで合格できてしまいます。正解を短くするか、同じくらいの長さの誤答を書いてください。
content-term-variant = 「{ $variant }」はこのコースで使わない表記です。「{ $preferred }」と書いてください({ $table } を参照)。
content-term-bad-row = この用語表の行にはセルが { $count } 個あります。必要なのは { $expected } 個です: Term、en、ja、ko、Avoid (en)、Avoid (ja)、Avoid (ko)。
content-term-no-table = 用語表が見つかりません。表は見出し行 { $header } で始めてください。
check-cues-longest = 正解がいちばん長い選択肢(同じ長さを含む。上限 25%): { $shares }
content-cue-longest = { $lang ->
    [ja] 日本語
    [ko] 韓国語
   *[en] 英語
}では、コース全体の { $share } の問題で正解がいちばん長い選択肢(同じ長さを含む)になっていて、4 分の 1 を超えています。いちばん長い選択肢を選ぶだけで正解しすぎてしまいます。目立って長い正解を短くするか、誤答を長くしてください。
content-term-unlisted = 用語集の「{ $term }」({ $name })の行がこの表にありません。各言語の表記と避ける表記を書いた行を加えてください。そうすれば check がコースの表記をそろえられます。
