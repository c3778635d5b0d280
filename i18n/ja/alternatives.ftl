# 複数リリースのラボで、ステップがまだ終わっていない理由(update-alternatives と /opt/rocm)。
alt-why-points-elsewhere = /opt/rocm の行き先は { $now } で、/opt/rocm-{ $release } ではありません。alternatives の仕組みで { $release } を選んでください: sudo update-alternatives --config rocm(または --set rocm /opt/rocm-{ $release })
alt-why-link-bypassed = /opt/rocm が /etc/alternatives/rocm を経由しない独自のリンク({ $target })に置き換えられています。このままでは次の ROCm パッケージ更新で管理下のリンクに戻されます。sudo update-alternatives --set rocm /opt/rocm-{ $release } を実行すると、リンクも元に戻ります。
alt-why-no-group = rocm の alternative が削除されているため(/var/lib/dpkg/alternatives/rocm がありません)、/opt/rocm はもう管理されていません。ラボをリセットし、グループを消すのではなく update-alternatives で切り替えてください。
alt-why-not-registered = /opt/rocm-{ $release } は rocm の alternative の選択肢から外れています(選択肢は update-alternatives --list rocm で確認できます)。このままでは次の更新でリンクが置き換えられます。sudo update-alternatives --install /opt/rocm rocm /opt/rocm-{ $release } 1 で登録し直し、--set で選んでください。
alt-why-auto-moves-back = /opt/rocm は今 { $release } を指していますが、rocm の alternative は自動モードのままです。次の ROCm 更新で、優先度が最も高い { $best } に戻されます。sudo update-alternatives --set rocm /opt/rocm-{ $release }(または --config)で選ぶと手動モードになり、選択が保たれます。
alt-why-tree-removed = /opt/rocm-{ $release } が削除されていますが、このマシンのほかの利用者はまだ ROCm { $release } を使います。ラボをリセットしてください。既定のリリースを切り替えるのに、リリースを削除する必要はありません。
alt-why-login-via-rocm = 新しいログインでは { $command } が { $dir } から実行され、これは ROCm { $have } です。/opt/rocm がまだそちらを指しています。update-alternatives で /opt/rocm を { $release } に切り替え、ログインし直してください。
alt-why-login-proof = 新しいログインなら ROCm { $release } の hipcc が動くはずです。あなた自身のログインで hipcc --version を実行して確かめてください(ログインファイルを変えたなら、先にログインし直します)。
alt-why-login-proof-old = このログインの hipcc --version は { $release } ではなく ROCm { $have } と表示しました。このログインは変更の前に始まっています。ログインし直して(exit)、hipcc --version を実行してください。
alt-why-login-pinned = 新しいログインでは { $command } が { $dir } から実行され、これは { $release } ではなく ROCm { $have } です。PATH の前のほうにリリースを直接指定したエントリがあります。設定している場所(~/.bashrc、~/.profile、/etc/profile.d/、/etc/environment)を探し、削除するか /opt/rocm/bin に向けてください。
