# Classroom: qualified item ids, the progress table, packs, exports, the class report.

cli-arguments = Arguments
classroom-kind-lesson = lesson
classroom-kind-quiz = quiz
classroom-kind-lab = lab
classroom-col-kind = Kind
classroom-col-id = Id
classroom-col-status = Status
classroom-col-score = Score
classroom-col-title = Title
classroom-bad-kind = "{ $spec }": "{ $kind }" is not a kind of item; write lesson:ID, quiz:ID or lab:ID.
classroom-unknown-item = There is no item "{ $spec }". Available: { $known }
classroom-ambiguous-item = "{ $id }" names more than one item: { $choices }. Write the one you mean.
classroom-pack-no-manifest = the pack has no pack.toml; progress and exports will know it only by its folder's name. Add one with `id`, `version` and `title`.
classroom-pack-bad-extends = `extends` can only be "builtin" (add to the built-in course), not "{ $value }"; leave it out to replace the built-in course.
classroom-not-your-folder = The progress in { $dir } belongs to the login "{ $owner }"; it is not opened for another login so that two people's work never mixes. Set { $env } to your name (each learner gets a folder of their own) or ROCM_LEARN_DATA_DIR to a folder of yours.
classroom-submit-failed = Could not write your progress to the class folder { $dir }: { $error }. It is saved here; tell your instructor.
classroom-report-foreign = Not included: { $learner } exported another course ({ $pack }); run the report with that pack's --content.
classroom-report-items = Each learner's items
classroom-report-first-best = first { $first }/{ $total }, best { $best }/{ $total }
classroom-report-minutes = { $n } min
classroom-report-hints = { $n ->
    [one] 1 hint
   *[other] { $n } hints
}
classroom-report-solution-viewed = solution viewed
classroom-report-by-script = completed by script
classroom-report-changed = content changed since
classroom-report-who = who: { $names }
classroom-cli-no-labs = Skip running the labs in the sandbox (a quick pass: files and machines only)
classroom-check-machine = the lab's machine cannot be built: { $error }
classroom-check-no-group = step "{ $step }" names the group "{ $group }", which the lab's machine does not have; learners would be told to join it.
classroom-check-no-user = step "{ $step }" checks the user "{ $user }", whom the lab's machine does not have; set [machine] user = "{ $user }" or name the machine's user in the step.
classroom-check-running = Proving lab { $lab } in the sandbox...
classroom-check-lab-failed = lab { $lab }: { $what }: { $reason }
classroom-check-step-not-done = step "{ $step }" is not done: { $why }
classroom-check-bad-header = the first line must be `# expect: STEP: reason text`.
classroom-check-bad-passed = every step passed, but a bad- script must fail.
classroom-check-bad-wrong = expected step "{ $step }" to fail with "{ $reason }", but step "{ $got }" failed with: { $why }
classroom-cli-doctor-labs = Check whether the hands-on labs can run here (bubblewrap, user namespaces, AppArmor, Landlock)
classroom-cli-apparmor-profile = With --labs: print the AppArmor profile that lets bubblewrap run labs on Ubuntu 24.04
doctor-labs-title = rocm-learn doctor --labs: can the hands-on labs run on this machine? Nothing is changed.
doctor-labs-macos = The labs run a real shell in a Linux sandbox (bubblewrap), which macOS does not have. Lessons and quizzes work here.
doctor-labs-windows = The labs run a real shell in a Linux sandbox (bubblewrap), which Windows does not have. Lessons and quizzes work here.
doctor-labs-other-os = The labs run a real shell in a Linux sandbox (bubblewrap), which this system does not have. Lessons and quizzes work here.
doctor-labs-vm-fix = Run rocm-learn inside a Linux virtual machine (for example Ubuntu 24.04 in UTM, Multipass or VirtualBox) and install bubblewrap there.
doctor-labs-windows-fix = Use WSL2: in PowerShell run wsl --install -d Ubuntu-24.04, then inside Ubuntu run sudo apt install bubblewrap and start rocm-learn there.
doctor-labs-bwrap-ok = bubblewrap is installed ({ $path }).
doctor-labs-bwrap-missing = bubblewrap (bwrap) is not on PATH; the labs never run their shell without it.
doctor-labs-bwrap-fix = Install it: Debian and Ubuntu: sudo apt install bubblewrap; Fedora: sudo dnf install bubblewrap; Arch: sudo pacman -S bubblewrap.
doctor-labs-userns-ok = Unprivileged user namespaces are allowed.
doctor-labs-userns-off = Unprivileged user namespaces are turned off, and bubblewrap needs one for every lab.
doctor-labs-userns-fix = sudo sysctl -w user.max_user_namespaces=15000 (and on Debian kernels sudo sysctl -w kernel.unprivileged_userns_clone=1); put the same lines in /etc/sysctl.d/90-userns.conf to keep them after a reboot.
doctor-labs-apparmor-free = AppArmor does not restrict user namespaces here.
doctor-labs-apparmor-profile = AppArmor restricts user namespaces, and { $file } allows them for bubblewrap.
doctor-labs-apparmor-restricted = AppArmor restricts unprivileged user namespaces (Ubuntu 24.04 does by default) and no profile allows them for bubblewrap, so a lab cannot start.
doctor-labs-apparmor-fix = Install the profile rocm-learn ships, which allows this for bwrap alone: rocm-learn doctor --labs --apparmor-profile | sudo tee /etc/apparmor.d/bwrap && sudo apparmor_parser -r /etc/apparmor.d/bwrap
doctor-labs-landlock-ok = Landlock is enforced by this kernel (ABI { $abi }).
doctor-labs-landlock-off = This kernel refuses Landlock (asked the way a lab asks it). Labs still run inside bubblewrap, but nothing stops a learner from writing the lab machine's state, so their results are not tamper-proof and are marked so. Landlock needs Linux 5.13 or later with landlock in the kernel's lsm= list.
doctor-labs-sandbox-ok = A test sandbox started and stopped: labs can run here.
doctor-labs-sandbox-not-tried = No test sandbox was started: fix the problems above first.
doctor-labs-ids-root = Started by root, a lab gets the machine's own accounts (system files belong to root), device nodes that are real to every program, and a /usr that root may change inside the lab.
doctor-labs-ids-subordinate = Your subordinate ids (/etc/subuid, /etc/subgid) give a lab the machine's own accounts: system files belong to root, as on Ubuntu.
doctor-labs-ids-one = A lab maps your uid alone, so inside it the machine's files belong to the learner (Landlock still refuses the writes). For the machine's own accounts, install uidmap and give your account subordinate ids: sudo apt install uidmap && sudo usermod --add-subuids 100000-165535 --add-subgids 100000-165535 $USER
classroom-archive-unreadable = The content pack { $file } could not be read as a .tar.gz: { $error }
classroom-remembered-pack = Using the content pack { $pack }, opened last time; `--content builtin` goes back to the built-in course.
classroom-report-unconfined = not tamper-proof (no Landlock)
classroom-report-merged = { $count ->
    [one] 1 learner's record was merged from several files (every event kept).
   *[other] { $count } learners' records were merged from several files (every event kept).
}
classroom-report-machines = { $count ->
    [one] 1 machine
   *[other] events from { $count } machines
}
classroom-report-live = now on { $item } for { $n } min
classroom-report-live-step = now on { $item }, step { $step }, for { $n } min
classroom-flag-two-people = two people under one name? Files come from the logins { $logins }.
classroom-flag-new-key = not taken: { $file } is signed by a key this learner never used before ({ $key }); if it is the learner's new machine, run the report with --trust-new-keys.
classroom-flag-bad-signature = not taken: { $file } was changed after it was signed.
classroom-flag-unsigned = not taken: { $file } is not signed, while this learner's other files are.
classroom-sign-failed = The export could not be signed ({ $error }); a class report will not take it.
lrs-status-waiting = { $count ->
    [0] No statements wait for { $url }.
    [one] 1 statement waits for { $url }.
   *[other] { $count } statements wait for { $url }.
}
lrs-not-configured = No learning record store is set: set { $env } to its xAPI base URL (for example https://lrs.example.org/xAPI).
lrs-problem-credentials = The learning record store refused the credentials ({ $detail }): check { $env } (user:password). The statements stay queued.
lrs-problem-unreachable = The learning record store could not be reached ({ $detail }); the statements stay queued and are sent on the next run.
lrs-problem-rejected = The learning record store rejected the statements ({ $detail }); they stay queued. `rocm-learn lrs status` tries again.
lrs-fetch-failed = Could not read statements from { $url }: { $error }
lrs-queue-failed = Could not queue statements in { $dir }: { $error }
classroom-check-scripts-ran = lab { $lab }: { $count ->
    [0] no test scripts (add tests/{ $lab }/ok-*.sh and bad-*.sh)
    [one] 1 test script ran
   *[other] { $count } test scripts ran
}
classroom-check-unmatched = warning: { $path } is not checked: test folders must be named after a lab of the pack (tests/LAB/) and scripts ok-*.sh or bad-*.sh.
classroom-report-helped = helped by the instructor
