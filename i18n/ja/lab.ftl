# 演習: サンドボックス、シェル、チェックリスト

lab-no-bwrap = 演習のシェルは bubblewrap の中で動きますが、bubblewrap がインストールされていません。インストールしてから(Debian・Ubuntu: sudo apt install bubblewrap、Fedora: sudo dnf install bubblewrap、Arch: sudo pacman -S bubblewrap)演習を開き直してください。rocm-learn がサンドボックスなしで演習のシェルを動かすことはありません。
lab-userns-apparmor = この環境では bubblewrap がユーザー名前空間を作成できません。AppArmor が非特権ユーザー名前空間を制限しています(Ubuntu 24.04 の既定)。sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 で全体に許可するか、"userns" を許可する AppArmor プロファイルを bwrap 用に用意してください(/etc/apparmor.d/ を参照)。bubblewrap のメッセージ: { $error }
lab-userns-disabled = このシステムでは bubblewrap が名前空間を作成できません。ユーザー名前空間が無効になっていると思われます。sudo sysctl -w kernel.unprivileged_userns_clone=1(または user.max_user_namespaces を 1 以上に)で有効にするか、許可されているマシンで rocm-learn を実行してください。bubblewrap のメッセージ: { $error }
lab-bwrap-failed = bubblewrap が演習のサンドボックスを起動できませんでした: { $error }。rocm-learn はサンドボックスなしで演習のシェルを動かしません。

lab-start-failed = 演習を開始できませんでした: { $error }
lab-bad-machine = この演習が記述するマシンをシミュレーターで作れません: { $error }。コンテンツに対して `rocm-learn check` を実行してください。
lab-file-outside = 演習が { $path } に書き込もうとしています。演習マシン自身のフォルダー(/etc、/home、/opt、/var)の外なので、開始しませんでした。
lab-script-unreadable = スクリプト { $file } を読み込めませんでした: { $error }
lab-relogin = -- ログアウトしました。{ $user } として再ログインします --
lab-script-checklist = チェックリスト:
lab-script-complete = 演習完了: { $total } ステップ中 { $done } ステップ達成。
lab-script-incomplete = 演習は未完了です: { $total } ステップ中 { $done } ステップ達成。

lab-why-state-broken = シミュレーションされたマシンの状態を採点側が読み取れませんでした({ $error })。あなたのミスではありません。演習をリセットしてやり直してください。
lab-why-no-shell = シェルの準備を待っています。プロンプトで Enter を押してください。
lab-why-no-user = /etc/passwd にユーザー { $user } がいません。
lab-why-groups-missing = /etc/group ではまだ { $user } が { $groups } に入っていません。たとえば sudo usermod -aG { $csv } { $user } でグループを追加してください。
lab-why-groups-dropped = { $user } が { $groups } から外れています。usermod -G を -a なしで使うと補助グループがすべて置き換わります。sudo usermod -aG { $csv } { $user } で戻し、追加するときは必ず -a を付けてください。
lab-why-session-old = /etc/group では { $user } は { $groups } に入っていますが、このログインは変更前に始まったので古いグループのままです。いったんログアウトして入り直す(exit と入力)か、newgrp { $first } でそのグループ付きのシェルを起動してください。
lab-why-module-not-loaded = カーネルモジュール { $module } が読み込まれていません: sudo modprobe { $module }
lab-why-no-device = { $device } がありません。作成するドライバーが読み込まれていません。
lab-why-kfd-denied = /dev/kfd は { $owner }:{ $group }、モード { $mode } で、このログインからは読み書きで開けません。{ $group } グループに入って再ログインするか、デバイスを開放する udev ルールを作ってください。
lab-why-path-lost = PATH に { $dirs } がなくなっています。このシェルでは ls や grep など、ほとんどのコマンドが動かなくなります。PATH は置き換えずに追加してください: export PATH=$PATH:/opt/rocm/bin
lab-why-not-on-path = { $command } はこのシェルの PATH にありません。インストール先は { $where } です。そのフォルダー(または現在のバージョンを指す /opt/rocm/bin)を PATH に加えてください。
lab-why-login-path = 新しくログインすると { $command } が見つかりません。PATH の変更がこのシェルの中だけにとどまっています。~/.bashrc や /etc/profile.d/rocm.sh など、ログインシェルが読む場所に書いてください。
lab-why-login-not-installed = { $command } はまだこのマシンに入っていないので、PATH をどう設定しても見つかりません。先に ROCm を入れてから、新しいログインの PATH に /opt/rocm/bin があるか確かめましょう。
lab-why-module-not-persisted = { $module } はいま読み込まれていますが、再起動すると読み込まれません。/etc/modules-load.d/{ $module }.conf(または /etc/modules)に書いてください。
lab-why-no-rule = { $device } をモード { $mode } にする udev ルールがありません。/etc/udev/rules.d/ に、名前が .rules で終わるファイルとして書いてください。
lab-why-rule-ignored = { $file } は /etc/udev/rules.d にありますが、名前が .rules で終わっていないため udev に無視されます。たとえば 70-amdgpu.rules に名前を変えてください。
lab-why-rule-not-applied = ルールは書けていますが、udev がまだ { $device } に適用していません: sudo udevadm control --reload-rules && sudo udevadm trigger
lab-why-device-mode = { $device } のモードは { $mode } で、{ $want } ではありません。
lab-why-packages = まだインストールされていません: { $packages }
lab-why-packages-half = { $package } は展開されましたが、設定が終わっていません。実行中のカーネルのヘッダーがなかったため、ドライバーのビルドに失敗しました。ヘッダーを入れると(sudo apt install { $headers })、apt が { $package } の設定を仕上げます。
lab-why-headers = 実行中のカーネルのヘッダーがありません: sudo apt install { $package }(DKMS がドライバーをビルドするのに必要です)
lab-why-no-repo = ROCm のリポジトリが設定されていません。/etc/apt/sources.list.d/ に AMD のソース行を追加してください。
lab-why-repo-missing = { $file } は { $uri } を指していますが、repo.radeon.com にそのような場所はありません。apt update は 404 Not Found になります。URL のバージョンを確認してください。
lab-why-repo-key = apt が ROCm のリポジトリを信頼していません。signed-by= で指定した鍵がないか、キーリングの形式ではありません。AMD の鍵を取得し、dearmor して /etc/apt/keyrings/rocm.gpg に置いてください。
lab-why-repo-update = ROCm のリポジトリは設定済みですが、apt がまだ読み込んでいません: sudo apt update
lab-why-repo-codename = { $file } にある AMD のソース行は「{ $suite }」向けですが、このノードは { $os }({ $codename })です。ノードに合ったスイートを使ってください。
lab-why-no-cluster = このマシンには Kubernetes クラスターがありません。
lab-why-node-label = ラベル { $label } の付いた GPU ノードがありません: kubectl label node NODE { $label }
lab-why-device-plugin = AMD GPU のデバイスプラグインが動いていないため、amd.com/gpu を公開しているノードがありません。DaemonSet を作成してください。
lab-why-no-gpu-pod = { $namespace } 名前空間には、まだ amd.com/gpu を要求する Pod がありません。
lab-why-gpu-pod-elsewhere = GPU Pod { $pod } は { $other } 名前空間にあります。このラボでは、チームのジョブが動く { $namespace } 名前空間に置く必要があります。そこに作ってください(kubectl apply -f gpu-pod.yaml、-n なし)。
lab-why-pod-pending = Pod { $pod } はまだ Pending です。理由は kubectl describe pod { $pod } で確認できます。
lab-why-file = { $path } にはまだ「{ $text }」が含まれていません。

lab-cannot-start = この環境では演習を開始できません。
lab-checklist = チェックリスト
lab-complete = 演習完了: すべてのステップを達成しました。お見事です!
lab-hint = ヒント { $n }
lab-solution = 解答
lab-reset-ask = 新しいマシンでこの演習をやり直しますか? 演習内での変更は失われます。
lab-terminal = ターミナル(Enter で入力)
lab-terminal-focused = ターミナル(F10 か Ctrl-] で抜ける)
lab-from-lesson = レッスン: { $title }
labs-none = この教材には演習がありません。
key-leave-terminal = ターミナルから抜ける
key-hint = ヒント
key-solution = 解答
key-reset = やり直す
key-focus-terminal = ターミナルに入力
lab-status-solved = 完了
lab-status-steps = { $total } ステップ中 { $done } 達成
cli-lab-plain = 行モード: 演習のシェルを標準入出力で 1 行ずつ使い、ステップを達成するたびに知らせる(スクリーンリーダー向け。端末がないときも自動で選ばれます)
lab-plain-start = 演習: { $title }
lab-plain-commands = シェルのコマンドを 1 行に 1 つ入力してください。:steps でステップ一覧、:hint でヒント、:solution で解答を表示し、:quit で演習を終了します(入力の終わりでも終了します)。
lab-plain-step-done = ステップ達成: { $step }
lab-plain-step-undone = ステップが未達成に戻りました: { $step }
lab-plain-steps-done = [達成] { $step }
lab-plain-steps-todo = [未達成] { $step }
lab-plain-hint = 「{ $step }」のヒント { $n }: { $text }
lab-plain-no-hint = このステップのヒントはこれ以上ありません。:solution と入力すると解答を表示します。
lab-plain-all-done = すべてのステップを達成しています。ヒントは不要です。
lab-plain-solution = 解答:
lab-plain-unknown = { $cmd } というコマンドはありません。使えるコマンド: :steps、:hint、:solution、:quit
