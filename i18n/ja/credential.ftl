# 修了証明: `rocm-learn credential` と `rocm-learn verify`

cli-credential = 修了した内容の修了証明を発行する(Open Badges 3.0、署名付き JWT)
cli-credential-out = 修了証明を標準出力ではなく FILE に書き出す
cli-issuer-jwk = 修了証明を確認する人のために、発行者の公開鍵を JWK で出力する
cli-verify = 修了証明の署名を確認し、何が証明されるかを表示する
cli-verify-file = `rocm-learn credential --out FILE` で作った修了証明
cli-verify-jwk = この JWK ファイルの鍵で署名された修了証明だけを受け付ける(`rocm-learn credential --issuer-jwk` で取得)
credential-builtin-course = Ubuntu で動かす ROCm: rocm-learn のコース
credential-nothing-done = まだ修了した項目がないため、修了証明に記載できる内容がありません。先にレッスン・クイズ・演習のいずれかを修了してください。
credential-write-failed = 修了証明を { $file } に書き出せませんでした: { $error }
credential-written = 修了証明を { $file } に書き出しました(修了した項目 { $items } 件)。
credential-issued-server = このクラスサーバーの鍵で署名しました。サーバーが記録した結果をサーバーが保証します。
credential-issued-learner = このインストールの鍵で署名しました。ほかの誰も記録していないため、この修了証明は結果についての本人の申告です。
credential-unreadable = { $file } を読み込めませんでした: { $error }
credential-bad-jwk = { $file } は JWK 形式の Ed25519 公開鍵(kty OKP、crv Ed25519)ではありません。`rocm-learn credential --issuer-jwk` で取得してください。
credential-bad-format = 無効: { $file } は修了証明(base64url の 3 つの部分からなる JWT)ではありません。
credential-bad-kind = 無効: { $file } は EdDSA(Ed25519)で署名された vc+jwt ではありません。
credential-bad-signature = 無効: { $file } の署名が一致しません。署名後に変更されたか、別の鍵で署名されています。
credential-bad-type = 無効: { $file } は署名されていますが、OpenBadgeCredential ではありません。
credential-valid = 有効: { $learner } さんは「{ $course }」の { $items } 項目を修了しました(発行 { $issued }、鍵 { $kid })。
credential-proves = 証明されること: その鍵の持ち主がこの修了証明に署名し、それ以降内容が一切変更されていないこと。
credential-key-pinned = 鍵は指定された JWK の鍵と一致します。
credential-key-unpinned = 鍵はファイル自体に含まれていたものです。発行者が公開している JWK と照合してください(`--issuer-jwk FILE`)。照合しなければ、誰でも作れます。
credential-by-server = クラスサーバーが記録: 演習はサーバー上で動き、各ステップをサーバー自身が採点しました。
credential-by-learner = 受講者自身のマシンで記録: 本人のマシン上の結果は作り変えられるため、これは本人の申告です。
credential-server-unpinned = クラスサーバーが記録したと書かれていますが、そのサーバーの JWK(`--issuer-jwk FILE`)と照合しなければ、ファイル自身の申告にすぎません。
credential-not-proves = 証明されないこと: 実際に誰がキーボードの前にいたか。
