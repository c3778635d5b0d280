# kubectl の編集系コマンドと、amdgpu-wont-load の「DKMS ビルドなし」の開始状態で加わったステップの理由。
lab-why-boot-no-module = 次の起動でも、実行中のカーネル { $kernel } には amdgpu モジュールがないままです。DKMS は別のカーネル向けにしかビルドしていません(dkms status)。このカーネルのヘッダーを sudo apt install linux-headers-$(uname -r) でインストールすれば、DKMS がビルドします(ヘッダーが入っていれば sudo dkms autoinstall でも構いません)。linux-modules-extra-$(uname -r) を入れれば、代わりに Ubuntu 自身の amdgpu が使えます。
