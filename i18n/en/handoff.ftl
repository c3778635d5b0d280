# Saving under a lock with a deadline, and handing results to the class (submit folder, LRS) off the UI thread.

progress-locked = Could not save progress: { $path } has been locked for { $secs } seconds by another program, most likely another rocm-learn stuck while saving to the same folder. Quit that one (or wait for it), then try again. To find it: fuser { $path }
handoff-no-thread = Could not start the thread that writes your results to the class folder and the learning record store; they are saved here only. Tell your instructor.
handoff-export-unwritten = Your latest results did not reach the class folder { $dir } before quitting (it did not finish within { $secs } seconds). They are saved here and go there the next time you finish something; or hand in the output of `rocm-learn progress --json`.
handoff-statements-unqueued = { $count } results were not queued for the learning record store before quitting (it did not finish in time). They are saved in your progress here, but the store will not receive them from this run.
