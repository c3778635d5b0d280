# 模擬マシンの起動・udev・クラスタの状態を読むラボチェックの理由文。
machine-why-rule-add-only = { $device } 向けのルールは ACTION=="add" のイベントにしか一致しませんが、オプションなしの udevadm trigger が送るのは "change" イベントです。add イベントを送るか(sudo udevadm trigger --action=add)、ACTION の条件を外してください。
machine-why-rule-overridden = { $file } は udev 標準の { $default } より先に処理されるため、後からモードが設定し直されます。ファイル名の番号を 50 より大きくしてください(例: 70-amdgpu.rules)。
machine-why-device-plugin-image = DaemonSet が動かしているイメージは { $image } で、AMD のデバイスプラグインではありません(NVIDIA のものも同じ名前です)。そのため amd.com/gpu を公開するノードがありません。イメージが rocm/k8s-device-plugin である AMD のマニフェストを適用してください。
machine-why-label-overwrite = ノード { $node } にはすでに { $key }={ $value } が付いています。kubectl label は --overwrite を付けないと既存のラベルを変更しません: kubectl label node { $node } { $label } --overwrite
machine-why-label-case = ノード { $node } には { $key }={ $value } が付いていますが、ラベルの値は大文字と小文字を区別します。Pod の nodeSelector が求めるのは { $want } なので、{ $value } は一致しません。正確な値にしてください: kubectl label node { $node } { $label } --overwrite
machine-why-blacklisted = { $file } が { $module } をブラックリストに入れているため、次回の起動では udev も systemd-modules-load もこれを読み込みません(手動の modprobe なら読み込めます)。その行を削除するか、コメントアウトしてください。
machine-why-blacklist-cmdline = 次回起動時のカーネルコマンドラインに modprobe.blacklist={ $module } が含まれています。/etc/default/grub の GRUB_CMDLINE_LINUX_DEFAULT または GRUB_CMDLINE_LINUX から削除し、sudo update-grub を実行してください。
machine-why-nomodeset = 次回起動時のカーネルコマンドラインに nomodeset が含まれており、amdgpu が起動できません。/etc/default/grub から削除し、sudo update-grub を実行してください。
machine-why-installer-codename = リポジトリは { $found } 向けですが、このノードは Ubuntu { $codename } です。amdgpu-install の .deb が { $found } 向けのものでした。https://repo.radeon.com/amdgpu-install/{ $version }/ubuntu/{ $codename }/ から正しいものをダウンロードし、sudo dpkg -i で上書きインストールしてください。
machine-why-login-tools = 新しいログインでは { $command } が見つかりますが、日常のコマンド({ $lost })が使えなくなります。起動ファイルで設定した PATH がシステムのディレクトリを置き換えているためです。置き換えずに追加してください: export PATH=$PATH:/opt/rocm/bin
machine-why-repo-not-mirrored = { $file } は ROCm { $version } を指しています。repo.radeon.com には存在しますが、このラボのオフラインミラーにあるのは { $have } だけです。ここではそのいずれかのバージョンを使ってください。
