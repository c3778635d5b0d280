# `rocm-learn serve`: 接続が切れても残るセッション、上限、ラボのメモリー予算。

serve-reattached = 再接続しました: セッションはそのまま残っています
serve-refused-sessions = すでに { $n } 個のセッションを開いています(上限は { $max } 個)。先にどれかを終了してください。接続が切れたセッションは、もう一度ログインすると再接続されます。
serve-refused-connections = { $name } の接続が多すぎます。使っていない接続を閉じてから、もう一度試してください。
serve-refused-busy = クラスサーバーへの接続が多すぎます。1 分ほど待ってからもう一度試すか、講師に知らせてください。
serve-opt-keep-detached = 接続が切れた受講者のセッションを残しておく時間(分)。次のログインで再接続されます(既定は 10、0 なら残しません)
serve-opt-max-startups = ログイン前の接続数: START を超えると新しい接続を RATE % の確率で切り、FULL ですべて切ります(既定は 10:30:100、sshd の MaxStartups と同じ)
serve-opt-per-source = 1 つのアドレスから同時に受け付けるログイン前の接続数(既定は 5。クラス全体が 1 つのアドレスから接続するときは、--max-startups とともに増やしてください)
serve-opt-sessions-per-learner = 1 人の受講者が同時に開けるセッション数(既定は 3)
serve-opt-lab-memory = 開いているラボ全体が使えるメモリー(MiB)(既定はこのマシンのメモリーの半分)
serve-class-detached = 保持 あと{ $n }分
serve-labs-full = クラスサーバーはいまラボで満杯です。ほかの受講者のラボがメモリーを使っています。数分後にもう一度試すか、講師に知らせてください。

serve-mirror-help-asked = { $name } さんに入力の許可を求めています。相手の許可 (相手側の F9) を待っています。F9: 取り消す
serve-mirror-helping = { $name } さんの許可を得て入力中: キー入力は相手のセッションに届きます。F9: 入力をやめる
serve-help-asked = 講師があなたのセッションでの入力を求めています: F9 で許可
serve-help-on = 講師が一緒に入力しています: F9 で終了
