# ラボのサンドボックスとスーパーバイザー
lab-login-broken = 新しいログインが開始直後に毎回終了するため(最後の終了ステータス: { $status })、ログインを停止しました。起動ファイル(/etc/environment、/etc/profile、/etc/profile.d/*、~/.profile、~/.bashrc)のどれかがシェルを終了させている可能性があります。F5 キーでマシンをリセットしてください。
