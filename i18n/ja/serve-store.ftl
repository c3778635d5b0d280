# serve --store と report --store: 複数のサーバーが共有するクラスのデータベース(PostgreSQL)。
serve-opt-store = クラスのほかのサーバーと共有するクラスのデータベース。postgres://USER:PASSWORD@HOST:PORT/DB の形で指定します(ROCM_LEARN_STORE でも可)
cli-report-store = ファイルの代わりに rocm-learn serve のクラスのデータベース(postgres://...)からレポートを作ります
store-url-bad = クラスのデータベースのアドレスが正しくありません({ $why })。postgres://USER:PASSWORD@HOST:PORT/DB の形で書いてください。
store-tls-unsupported = クラスのデータベースのアドレスが TLS を求めています(sslmode=require)が、この rocm-learn は TLS なしで接続します。データベースにはプライベートネットワークか SSH トンネルで接続し、sslmode=require を外してください。
store-unreachable = クラスのデータベース { $url } に接続できませんでした: { $error }
store-failed = クラスのデータベースでエラーが起きました: { $error }
store-too-new = クラスのデータベースのスキーマはバージョン { $found } で、この rocm-learn が知るバージョン({ $known })より新しいものです。セットアップに使った rocm-learn か、より新しいものを使ってください。
store-timeout = クラスのデータベースから { $secs } 秒以内に応答がありませんでした。
store-empty = データベース { $url } にはまだクラスがありません。先にこのデータベースを --store に指定して rocm-learn serve を起動してください。
serve-opt-health = ロードバランサーのヘルスチェック用に ADDR:PORT で HTTP に応答します: 200 ready、503 draining(SIGTERM の後)
serve-drain-leave = このクラスサーバーは停止します。同じコマンドでもう一度ログインしてください。これまでの作業はすべて残ったまま、別のサーバーで続けられます。
