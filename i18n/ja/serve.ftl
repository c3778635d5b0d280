# `rocm-learn serve`: クラス全体に SSH でアプリを提供する。

serve-about = クラス全体に SSH でアプリを提供します。受講者は自分の鍵でログインし、ラボはこのサーバーで動きます
serve-opt-class = クラスフォルダー: roster.toml、ホスト鍵、パック、全受講者の進捗を置く場所
serve-opt-listen = 待ち受けるアドレスとポート
serve-opt-max-sessions = 同時に開けるセッションの上限
serve-opt-login-timeout = 接続がログインを終えるまでの秒数
serve-no-class = クラスフォルダー { $dir } がありません。フォルダーを作り、roster.toml を置いてください (docs/classroom.md を参照)。
serve-roster-unreadable = 名簿 { $path } を読めませんでした: { $why }
serve-roster-bad = { $at }: { $why }
serve-roster-bad-name = { $at }: 「{ $name }」はログイン名に使えません。英小文字、数字、「-」、「_」の 1〜32 文字で、先頭は英小文字か数字にしてください。
serve-roster-twice = { $at }: 「{ $name }」が名簿に 2 回あります。ログイン名は 1 人に 1 つです。
serve-roster-bad-key = { $at }: 「{ $name }」の鍵が OpenSSH 公開鍵の行ではありません ({ $why })。id_ed25519.pub の行をそのまま貼り付けてください。
serve-host-key-bad = サーバーのホスト鍵 { $path } を使えません: { $why }。別の場所へ移すと新しい鍵が作られます (受講者にはホスト鍵の変更が表示されます)。
serve-listen-failed = { $addr } で待ち受けできませんでした: { $error }
serve-listening = { $dir } のクラスを { $addr } で提供しています (名簿に { $people } 人)。Ctrl-C で停止します。
serve-refused-unknown = この名前はクラスの名簿にありません。講師から伝えられた名前でログインしてください。
serve-full = クラスは現在満員です。数分後にもう一度試すか、講師に知らせてください。
serve-needs-terminal = 端末が必要です。ssh -t で接続してください。
serve-not-allowed = ここでは使えません。アプリはコマンドなしで接続してください。使えるコマンド: lab ID、quiz ID、lesson ID、progress [--json|--csv]。
serve-app-failed = サーバーでアプリを起動できませんでした。講師に知らせてください。
