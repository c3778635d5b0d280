# 管理対象ランタイムのラボで、ステップがまだ終わっていない理由(AMD の rocm コマンド、~/.rocm)。
rt-why-none = rocm には、まだ管理対象ランタイムが登録されていません(rocm runtimes list の表示は「installed: none」)。ROCm { $version } を自分用のランタイムとしてインストールしてください: rocm install sdk に --version と --family を付けます(この GPU の gfx コードは rocm examine でわかります)。
rt-why-version = 管理対象ランタイムは ROCm { $have } で、チームに必要なのは { $version } です。--version を付けない rocm install sdk は TheRock のリリースチャンネルから取ります。--version { $version } と、--family に正確な gfx コードを付けて { $version } を指定してください。
rt-why-family = そのリリースの ROCm ランタイムは { $have } 向けにビルドされています。このノードの GPU は { $family } です。ROCm 10 は正確なアーキテクチャーごとに 1 つのペイロードを配布するので、--family { $family } でインストールし直してください。
rt-why-broken = ランタイムのフォルダー { $root } に環境が残っていません(.rocm-cli-runtime.json か bin/python がない)。rocm はこれを使えません。rocm runtimes uninstall で削除して、インストールし直してください。
rt-why-toolchain = ランタイム { $key } にはコンパイラーがありません(rocm runtimes list で toolchain=excluded)。チームは HIP のコードをビルドします。ツールチェーンを後から足すことはできないので、--devel を付けてインストールし直してください。最初のランタイムの隣に 2 つ目のランタイムができます。
rt-why-no-active = rocm にアクティブなランタイムがありません。どれかを既定にしてください: rocm runtimes activate に、その runtime_key を続けます(キーは rocm runtimes list でわかります)。
rt-why-active-missing = rocm の設定はアクティブなランタイムとして { $key } を指していますが、そのランタイムは登録されていません。登録済みのものを rocm runtimes activate でアクティブにしてください。
rt-why-active-other = アクティブなランタイムはまだ { $key }(ROCm { $have })で、ROCm { $version } ではありません。インストールの確認を断ったか、後で rocm runtimes activate で戻すと、こうなります。新しいほうをアクティブにしてください: rocm runtimes activate に、その runtime_key を続けます。
rt-why-login-none = 新しいログインでは { $command } がどこにも見つかりません。アクティブなランタイムのプログラムのフォルダーを、シェルの起動ファイルで PATH に加えてください: { $bin }
rt-why-login-system = 新しいログインでは、まだシステムの ROCm の { $command } が動きます({ $dir } 経由)。ランタイムをアクティブにして変わるのは rocm が使うものだけで、PATH は変わりません。シェルの起動ファイルで { $bin } を /opt/rocm/bin より前に置き、ログインし直してください。
rt-why-login-elsewhere = 新しいログインでは { $command } が { $dir } から動きますが、これはアクティブなランタイムのものではありません。シェルの起動ファイルで { $bin } を PATH の先頭に置き、ログインし直してください。
rt-why-proof = 新しいログインなら ROCm { $version } のランタイムを使うはずです。あなた自身のログインで rocm-sdk version と which hipcc を実行して確かめてください(起動ファイルを変えたなら、先にログインし直します)。
rt-why-proof-shell = rocm-sdk version を実行したシェルの PATH は、まだシステムの ROCm のプログラムを指しています。このログインは変更より前に始まったものです。ログインし直して(exit)、そこで実行してください。
