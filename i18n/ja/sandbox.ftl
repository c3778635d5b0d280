# ラボのサンドボックスとスーパーバイザー
lab-login-broken = 新しいログインが開始直後に毎回終了するため(最後の終了ステータス: { $status })、ログインを停止しました。起動ファイル(/etc/environment、/etc/profile、/etc/profile.d/*、~/.profile、~/.bashrc)のどれかがシェルを終了させている可能性があります。F5 キーでマシンをリセットしてください。
check-path-dot-segment = 「{ $path }」に「.」または「..」の要素が含まれています。/etc/profile.d/rocm.sh のように、演習マシン内の素直な絶対パスで書いてください。
check-path-nul = 「{ $path }」に NUL 文字が含まれています。パスに NUL 文字は使えません。
check-mode-special = 「{ $mode }」は setuid・setgid・スティッキービットのいずれかを立てます。演習ファイルには使えません。"0644" や "0755" のように、パッケージが普通にインストールするモードを指定してください。
lab-file-through-link = 演習ファイル { $path } は、マシン内のシンボリックリンクを経由して書き込まれることになります。リンクではない実際のパスで指定してください。
