# コンテナと GPU 選択のラボのステップの理由(issue 16)。
lab-why-container-none = rocminfo を実行したコンテナはまだありません。イメージの後ろに rocminfo を付けて実行してください。例: sudo docker run ... rocm/rocm-terminal rocminfo
lab-why-container-gpus = Docker は --gpus を拒否しました({ $error })。このフラグは NVIDIA のコンテナランタイムを求めるものです。AMD の GPU はデバイスノードとして渡します: --device=/dev/kfd --device=/dev/dri
lab-why-container-no-kfd = rocminfo を実行した直近のコンテナには /dev/kfd がありませんでした。--device=/dev/kfd で渡してください。
lab-why-container-no-render = rocminfo を実行した直近のコンテナには /dev/kfd はありましたが、レンダーノードがありませんでした。--device=/dev/dri(または --device=/dev/dri/renderD128 のようにノード 1 つ)を加えてください。
lab-why-container-group = コンテナのプロセスは、/dev/kfd を所有するホストの render グループ(GID { $gid })を持っていませんでした。名前はイメージの中で探されるので、番号で渡してください: --group-add $(getent group render | cut -d: -f3)
lab-why-container-root = コンテナは root で動いており、どのデバイスでも開けてしまいます。イメージ本来のユーザーで動かし、代わりに --group-add でホストの render の GID を与えてください。
lab-why-container-no-gpu = 直近のコンテナの rocminfo は GPU を見つけられませんでした({ $error })。
lab-why-login-no-gpu = 新しくログインすると、ROCm のプログラムに GPU が 1 つも見えなくなります。ログインファイルの *_VISIBLE_DEVICES の値を、rocminfo が示すデバイス番号と照らし合わせてください。
lab-why-login-igpu = 新しくログインしても、ROCm に内蔵 GPU({ $name }、{ $gfx })が見えたままです。ROCm は内蔵 GPU をサポートしていません。~/.bashrc に export ROCR_VISIBLE_DEVICES=1 と書くなどして隠してください。
lab-why-login-no-binary = 新しくログインすると、PyTorch は hipErrorNoBinaryForGpu で止まります。ログインから見える GPU のどれかに対して、wheel にコードがありません。ログインファイルで、カードのための HSA_OVERRIDE_GFX_VERSION を設定してください。
lab-why-login-override-no-binary = 新しいログインは HSA_OVERRIDE_GFX_VERSION={ $value } を設定していますが、PyTorch の wheel にはそのバージョン向けのコードもないため、やはり hipErrorNoBinaryForGpu で止まります。同じ世代で wheel がビルドされているバージョン 10.3.0 を指定してください。
lab-why-login-wrong-override = 新しくログインすると、{ $gfx } の GPU が別の世代の { $isa } 向けにビルドされたコードを実行することになり、最初のカーネルが「invalid device function」で失敗します。同じ世代に上書きしてください。gfx1031 なら 10.3.0 です。
lab-why-no-torch = learner には PyTorch がインストールされていません。
lab-why-login-bad-override = HSA_OVERRIDE_GFX_VERSION="{ $value }" はバージョンの形になっていません。ランタイムが求めるのは 10.3.0 のような major.minor.stepping です。
lab-why-boot-blacklist = 次の起動でも amdgpu は読み込まれません。ブラックリストが禁止しています(grep -r amdgpu /etc/modprobe.d と、カーネルコマンドラインの modprobe.blacklist=)。手で読み込んでも再起動後には残りません。
lab-why-boot-nomodeset = 次の起動でもカーネルコマンドラインに nomodeset が残り、amdgpu は起動を拒みます。/etc/default/grub の GRUB_CMDLINE_LINUX_DEFAULT から取り除き、sudo update-grub を実行してください。
lab-why-boot-update-grub = /etc/default/grub からは nomodeset が消えましたが、ブートローダーはまだそれを渡します。sudo update-grub で設定を生成し直してください。
lab-why-boot-other = 次の起動でも amdgpu は立ち上がりません。理由はカーネルログ(sudo dmesg、journalctl -k)で確認してください。
