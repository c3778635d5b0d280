# Saving under a lock with a deadline, and handing results to the class (submit folder, LRS) off the UI thread.

progress-locked = 進捗を保存できませんでした: { $path } が別のプログラムに { $secs } 秒間ロックされたままです。同じフォルダーに保存しようとして止まっている別の rocm-learn である可能性が高いです。それを終了する(または終わるのを待つ)と、もう一度保存できます。ロックしているプロセスは fuser { $path } で調べられます。
handoff-no-thread = クラスのフォルダーと学習記録ストア (LRS) に結果を書き込むスレッドを開始できませんでした。結果はこのマシンにだけ保存されています。講師に伝えてください。
handoff-export-unwritten = 最新の結果を、終了までにクラスのフォルダー { $dir } へ書き込めませんでした({ $secs } 秒以内に終わりませんでした)。結果はこのマシンに保存されており、次に何かを完了したときにクラスのフォルダーへ書き込まれます。`rocm-learn progress --json` の出力を自分で提出することもできます。
handoff-statements-unqueued = 終了までに { $count } 件の結果を学習記録ストア (LRS) の送信待ちに入れられませんでした(時間内に終わりませんでした)。進捗としてはこのマシンに保存されていますが、今回の実行分はストアに送られません。
