# Saving under a lock with a deadline, and handing results to the class (submit folder, LRS) off the UI thread.

progress-locked = 진도를 저장하지 못했습니다: { $path }이(가) 다른 프로그램에 { $secs }초 동안 잠겨 있습니다. 같은 폴더에 저장하다가 멈춘 다른 rocm-learn일 가능성이 큽니다. 그 프로그램을 종료하거나 끝날 때까지 기다린 뒤 다시 시도하세요. 잠근 프로세스는 fuser { $path }로 찾을 수 있습니다.
handoff-no-thread = 반 폴더와 학습 기록 저장소(LRS)에 결과를 쓰는 스레드를 시작하지 못했습니다. 결과는 이 컴퓨터에만 저장되어 있습니다. 강사에게 알려 주세요.
handoff-export-unwritten = 종료하기 전에 최신 결과를 반 폴더 { $dir }에 쓰지 못했습니다({ $secs }초 안에 끝나지 않았습니다). 결과는 이 컴퓨터에 저장되어 있으며, 다음에 무언가를 마치면 반 폴더에 쓰입니다. `rocm-learn progress --json`의 출력을 직접 제출해도 됩니다.
handoff-statements-unqueued = 종료하기 전에 결과 { $count }건을 학습 기록 저장소(LRS) 전송 대기열에 넣지 못했습니다(시간 안에 끝나지 않았습니다). 진도로는 이 컴퓨터에 저장되어 있지만, 이번 실행분은 저장소로 전송되지 않습니다.
