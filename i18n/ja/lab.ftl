# 演習: サンドボックス、シェル、チェックリスト

lab-no-bwrap = 演習のシェルは bubblewrap の中で動きますが、bubblewrap がインストールされていません。インストールしてから(Debian・Ubuntu: sudo apt install bubblewrap、Fedora: sudo dnf install bubblewrap、Arch: sudo pacman -S bubblewrap)演習を開き直してください。rocm-learn がサンドボックスなしで演習のシェルを動かすことはありません。
lab-userns-apparmor = この環境では bubblewrap がユーザー名前空間を作成できません。AppArmor が非特権ユーザー名前空間を制限しています(Ubuntu 24.04 の既定)。sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 で全体に許可するか、"userns" を許可する AppArmor プロファイルを bwrap 用に用意してください(/etc/apparmor.d/ を参照)。bubblewrap のメッセージ: { $error }
lab-userns-disabled = このシステムでは bubblewrap が名前空間を作成できません。ユーザー名前空間が無効になっていると思われます。sudo sysctl -w kernel.unprivileged_userns_clone=1(または user.max_user_namespaces を 1 以上に)で有効にするか、許可されているマシンで rocm-learn を実行してください。bubblewrap のメッセージ: { $error }
lab-bwrap-failed = bubblewrap が演習のサンドボックスを起動できませんでした: { $error }。rocm-learn はサンドボックスなしで演習のシェルを動かしません。
