# rocm-learn doctor: 演習のチェックをこの実機に向けて実行します(読み取りのみ)。
# コマンド、パス、グループ名、ツールの出力はどの言語でもそのまま残します。

doctor-title = rocm-learn doctor: このマシンの ROCm 環境を下の階から順に確認します。何も変更しません。
doctor-level-ok = 正常
doctor-level-problem = 問題あり
doctor-level-unknown = 判定不可
doctor-fix = 対処: { $text }
doctor-fix-same = 対処: 上と同じです。
doctor-learn-more = 詳しく学ぶ: { $command }
doctor-summary = 問題 { $problems } 件、正常 { $ok } 件、判定不可 { $unknown } 件です。

# 下の階が必要なチェック
doctor-needs-driver = { $check ->
    [kfd] /dev/kfd
    [kfd_access] /dev/kfd へのアクセス
    [render] レンダーノード(/dev/dri/renderD*)
    [rocminfo] rocminfo
    [amd_smi] amd-smi
   *[other] { $check }
}: amdgpu ドライバーが読み込まれていないため判定できません。上の階はすべてドライバーに依存するので、先にドライバーを直してください。

# 1F: PCI バス上の GPU
doctor-gpu-found = PCI バスに AMD GPU があります: { $count } 台({ $list })。
doctor-gpu-none = AMD GPU が見つかりません。PCI バスに AMD のディスプレイコントローラーもプロセッシングアクセラレーターもありません。ROCm は AMD GPU でプログラムを動かすため、このマシンではドライバー・デバイス・グループ・ROCm のチェックは対象がなく、省略しました。
doctor-gpu-none-fix = ここが GPU ノードでなければ、GPU ノードで rocm-learn doctor を実行してください。GPU ノードであれば、カードが正しく挿さり、電源がつながり、BIOS で有効になっているかを確認してください。ソフトウェアで対処できるのは、lspci -d 1002: に GPU が表示されてからです。
doctor-gpu-unreadable = AMD GPU があるかどうか判定できません。{ $path } を読み取れません({ $error })。/sys のないコンテナの中なら、ホスト側で doctor を実行してください。

# 2F: ドライバー
doctor-amdgpu-dkms = amdgpu ドライバーが読み込まれています。AMD の DKMS ビルドで、バージョンは { $version } です。
doctor-amdgpu-intree = amdgpu ドライバーが読み込まれています。カーネル { $kernel } に付属のドライバーです。
doctor-amdgpu-builtin = amdgpu ドライバーはカーネル { $kernel } に組み込まれています。
doctor-amdgpu-state = amdgpu モジュールの状態が「live」ではなく「{ $state }」です。読み込みの途中か、取り外しの途中です。
doctor-amdgpu-not-loaded = amdgpu カーネルモジュールが読み込まれていません。GPU はバス上にありますが、それを動かすドライバーがありません。
doctor-amdgpu-not-loaded-fix = sudo modprobe amdgpu を実行し、起動のたびに読み込まれるように echo amdgpu | sudo tee /etc/modules-load.d/amdgpu.conf を実行してください。modprobe が「Module amdgpu not found」と答えた場合は、カーネル { $kernel } 用のドライバーをインストールしてください。
doctor-amdgpu-not-built = amdgpu カーネルモジュールが読み込まれておらず、カーネル { $kernel } には読み込める amdgpu モジュールもありません。カーネル付属のものも AMD の DKMS ビルドも /lib/modules/{ $kernel } に登録されていません。
doctor-amdgpu-not-built-fix = このカーネルのヘッダーをインストールし、DKMS にドライバーをビルドさせてください。sudo apt install linux-headers-{ $kernel } のあと amdgpu-dkms を再インストールします。dkms status に { $kernel } が表示されたら、sudo modprobe amdgpu を実行します。
doctor-amdgpu-blocked = amdgpu カーネルモジュールが読み込まれていません。{ $place } の次の設定が読み込みを止めています: { $line }
doctor-amdgpu-blocked-fix = その設定を削除してください(カーネルパラメーターなら /etc/default/grub から削除し、sudo update-grub を実行して再起動します)。そのあと sudo modprobe amdgpu を実行します。
doctor-dmesg-fix = 理由はドライバー自身のメッセージに出ています: sudo dmesg | grep -iE 'amdgpu|kfd'

# 2F: デバイスファイルと、それを開けるユーザー
doctor-kfd-present = /dev/kfd があります(グループ { $group }、モード { $mode })。
doctor-kfd-missing = amdgpu ドライバーは読み込まれていますが、/dev/kfd がないため ROCm のプログラムは起動できません。ドライバーが計算に使える GPU を見つけられなかったか、初期化に失敗しています。
doctor-access-no-kfd = /dev/kfd へのアクセス: ファイルがないため判定できません。
doctor-open-ok = { $user } は { $device } を読み書きで開けます。
doctor-open-missing = doctor が開こうとしている間に { $device } がなくなりました。
doctor-open-error = { $device } を読み書きで開けませんでした: { $error }
doctor-denied-not-member = { $user } は { $device } を読み書きで開けません(Permission denied)。このファイルはグループ { $group }、モード { $mode } で、/etc/group では { $user } が { $group } に入っていません。
doctor-denied-not-member-fix = sudo usermod -aG { $groups } { $user } を実行し、いったんログアウトしてログインし直してください。-a は省略しないでください。付けないと、{ $user } のほかのグループがすべて置き換えられます。
doctor-denied-relogin = { $user } は { $device } を読み書きで開けません(Permission denied)。/etc/group では { $user } は { $group } に入っていますが、このログインはその変更より前に始まったため、まだそのグループを持っていません。
doctor-relogin-fix = いったんログアウトしてログインし直してください。変更前に起動したターミナル、SSH 接続、tmux サーバーはどれも古いグループのままです。いまのシェルだけなら newgrp { $group } で足ります。そのあと id -nG に { $group } が表示されることを確認してください。
doctor-denied-closed = { $user } は { $device } を読み書きで開けません(Permission denied)。モード { $mode } では所有者の { $owner } しか入れず、グループ { $group } には読み書きの権限がないため、グループに入っても解決しません。
doctor-denied-closed-fix = udev ルールでデバイスファイルのモードを直してください。たとえば /etc/udev/rules.d/70-amdgpu.rules に KERNEL=="kfd", GROUP="render", MODE="0660"(と SUBSYSTEM=="drm", KERNEL=="renderD*", GROUP="render", MODE="0660")と書き、sudo udevadm control --reload-rules && sudo udevadm trigger を実行します。
doctor-denied-other = このログインはグループ { $group } を持ち、モード { $mode } もグループに読み書きを許していますが、{ $user } は { $device } を読み書きで開けません(Permission denied)。ACL、SELinux や AppArmor、またはデバイスを渡さずに起動したコンテナなど、ファイルのモード以外のものが拒否しています。
doctor-denied-other-fix = getfacl { $device } と sudo dmesg | tail で拒否の記録を確認してください。コンテナの中なら、デバイスを渡して起動します(たとえば --device=/dev/kfd --device=/dev/dri)。
doctor-render-none = amdgpu ドライバーは読み込まれていますが、/dev/dri に AMD GPU のレンダーノード(renderD*)がありません。
doctor-render-ok = { $user } はレンダーノード { $count } 個をすべて読み書きで開けます({ $list })。

# このログインのグループと /etc/group
doctor-groups-unreadable = /etc/group を読み取れないため、このユーザーがどのグループに入っているか判定できません。
doctor-groups-relogin = /etc/group では { $user } は { $groups } に入っていますが、このログインは変更前に始まったため、まだそのグループを持っていません。ここから起動したプログラムは { $groups } 経由で GPU を使えません。
doctor-groups-match = このログインは、/etc/group が { $user } に与えている GPU 用グループをすべて持っています: { $groups ->
    [none] render にも video にも入っていません(ここでそれが問題になるかは上の /dev/kfd の結果を見てください)
   *[other] { $groups }
}。

# ROCm と PATH
doctor-rocm-found = ROCm { $version } が { $dir } にインストールされています。{ $others ->
    [none] {""}
   *[other] ほかに { $others } もあります。
}
doctor-rocm-noversion = ROCm は { $dir } にインストールされていますが、バージョンを読み取れません。.info/version がなく、フォルダー名も rocm-X.Y.Z の形ではありません。{ $others ->
    [none] {""}
   *[other] ほかに { $others } もあります。
}
doctor-rocm-none = ROCm がインストールされていません。/opt/rocm がありません。
doctor-rocm-none-fix = デプロイのレッスンのとおりにインストールしてください。この OS 用の AMD のリポジトリとカーネルヘッダーを用意し、sudo apt install amdgpu-dkms rocm(または amdgpu-install --usecase=rocm)を実行して再起動します。
doctor-path-ok = PATH に { $dir } が含まれています。hipcc や rocminfo などの ROCm のツールは名前だけで実行できます。
doctor-path-missing = ROCm のプログラムは { $dir } にありますが、そのフォルダーは PATH に入っていません。hipcc や rocminfo と入力すると「command not found」になります。
doctor-path-missing-fix = このシェルでは export PATH=$PATH:{ $dir } を実行し、新しいログインでも有効になるよう、同じ行を ~/.bashrc か /etc/profile.d/rocm.sh に書いてください。
doctor-path-no-rocm = PATH: ROCm がインストールされていないため、どのフォルダーを探せばよいか判定できません。
doctor-path-unset = このプログラムには PATH が設定されていないため、シェルから何が見つかるかを判定できません。

# 3F: rocminfo と amd-smi
doctor-tool-no-rocm = { $tool }: ROCm がインストールされていないため判定できません。
doctor-tool-timeout = { $tool } が { $secs } 秒以内に終わらなかったため、doctor が停止しました。ツールが応答しなくなるときは、ドライバーやファームウェアに問題があることがよくあります。sudo dmesg を確認してください。
doctor-tool-failed = { $tool } を起動できませんでした: { $error }
doctor-rocminfo-ok = rocminfo({ $path })には GPU エージェントが { $count } 個表示されています: { $names }。
doctor-rocminfo-missing = rocminfo がインストールされていません。PATH にも ROCm の bin フォルダーにもありません。
doctor-rocminfo-missing-fix = sudo apt install rocminfo を実行してください(ほかのディストリビューションでは dnf か zypper を使います)。
doctor-rocminfo-no-module = rocminfo の出力は「{ $line }」です。ランタイムからドライバーが見えていません。
doctor-rocminfo-kfd = rocminfo が /dev/kfd を開けません: 「{ $line }」。ROCm のプログラムはどれも同じ理由で失敗します(「hsa_init() failed」としか出ないこともよくあります)。理由は上の /dev/kfd の結果にあります。
doctor-rocminfo-failed = rocminfo が終了ステータス { $code } で終わりました: 「{ $line }」
doctor-rocminfo-no-agent = rocminfo は動きましたが、GPU エージェントが表示されません。ランタイムは起動したものの、使える GPU を見つけられませんでした。
doctor-amdsmi-ok = amd-smi({ $path })には GPU が { $count } 台表示されています。
doctor-amdsmi-none = amd-smi に GPU が表示されません: 「{ $line }」
doctor-amdsmi-missing = amd-smi がインストールされていません。ROCm 6.0 以降に含まれています(パッケージ amd-smi-lib)。それより古いノードでは代わりに rocm-smi を使います。

# OS とサポートマトリクス
doctor-os-listed = { $pretty }、カーネル { $kernel }: コースのサポートマトリクスには、この OS が ROCm { $releases } の対象として載っています。
doctor-os-unlisted = { $pretty }、カーネル { $kernel }: コースのサポートマトリクスでは、この OS はどのリリース({ $releases })の対象にも載っていません。
doctor-os-unlisted-fix = ここでも ROCm が動く可能性はありますが、誰もテストしていません。本番ノードには、使う GPU についてサポートマトリクスに載っている OS を選んでください。
doctor-os-unreadable = /etc/os-release を読み取れないため、OS を判定できません(カーネル { $kernel })。
doctor-support-no-isa = GPU のモデルを判定できません。ドライバーのトポロジー(/sys/class/kfd)がなく、rocminfo も ISA を表示しなかったため、サポートマトリクスで調べられません。
doctor-support-no-os = OS がわからないため、サポートマトリクスで GPU を調べられません。
doctor-support-no-data = コースにサポートマトリクスのデータがないため判定できません。
doctor-support-no-release = 判定できません。コースのサポートマトリクスには ROCm { $release } のデータがありません(あるのは { $known } です)。答えはそのリリースの AMD の互換性表に載っています。
doctor-support-ok = { $os } 上の { $gpu }({ $name })と ROCm { $release }{ $planned ->
    [yes] (未インストール。コースが知る最新のリリース)
   *[other] {""}
}: サポート対象です。
doctor-support-deprecated = { $os } 上の { $gpu }({ $name })と ROCm { $release }{ $planned ->
    [yes] (未インストール。コースが知る最新のリリース)
   *[other] {""}
}: 非推奨です。いまは動きますが、新機能は追加されず、今後のリリースでサポートが外れます。移行の計画を立ててください。
doctor-support-unsupported = { $os } 上の { $gpu }({ $name })と ROCm { $release }{ $planned ->
    [yes] (未インストール。コースが知る最新のリリース)
   *[other] {""}
}: サポート対象外です。{ $why ->
    [unlisted] このリリースには、この GPU がまったく載っていません。
    [os] このリリースはこの GPU をサポートしていますが、この OS ではサポートしていません。
   *[other] サポートマトリクスでは、このリリースでこの GPU はサポート対象外とされています。
}HIP ランタイムでプログラムが動くことはありますが、ビルド済みのライブラリはここではサポートされず、実行時に失敗することがあります。たとえば、この GPU 向けのコードがなければ「invalid device function」になります。
doctor-support-fix = サポートマトリクスでサポート対象になっている組み合わせを選んでください(サポートマトリクスは rocm-learn のホーム画面から開けます)。ROCm のリリース、OS、GPU のどれかを変えることになります。
