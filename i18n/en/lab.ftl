# Labs: the sandbox, the shell, the checklist.

lab-no-bwrap = Labs run the shell inside bubblewrap, which is not installed. Install it (Debian and Ubuntu: sudo apt install bubblewrap; Fedora: sudo dnf install bubblewrap; Arch: sudo pacman -S bubblewrap) and open the lab again. rocm-learn never runs the lab shell without a sandbox.
lab-userns-apparmor = bubblewrap may not create a user namespace here: AppArmor restricts unprivileged user namespaces (Ubuntu 24.04 does this by default). Either allow them for everyone with sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0, or give bwrap an AppArmor profile that allows "userns" (see /etc/apparmor.d/ on your system). bubblewrap said: { $error }
lab-userns-disabled = bubblewrap may not create namespaces on this system; user namespaces are probably turned off. Turn them on with sudo sysctl -w kernel.unprivileged_userns_clone=1 (or user.max_user_namespaces above 0), or run rocm-learn on a machine that allows them. bubblewrap said: { $error }
lab-bwrap-failed = bubblewrap could not start the lab sandbox: { $error }. rocm-learn does not run the lab shell without a sandbox.

lab-start-failed = The lab could not start: { $error }
lab-bad-machine = This lab describes a machine the simulator cannot build: { $error }. Run `rocm-learn check` on the content.
lab-file-outside = The lab wants to write { $path }, outside the lab machine's own folders (/etc, /home, /opt, /var); it was not started.
lab-script-unreadable = Could not read the script { $file }: { $error }
lab-relogin = -- logged out; logging in again as { $user } --
lab-script-checklist = Checklist:
lab-script-complete = Lab complete: { $done } of { $total } steps done.
lab-script-incomplete = Lab not complete: { $done } of { $total } steps done.

lab-why-state-broken = The lab checker could not read the simulated machine ({ $error }). This is not your mistake: reset the lab to start again.
lab-why-no-shell = Waiting for the shell: press Enter at the prompt.
lab-why-no-user = There is no user { $user } in /etc/passwd.
lab-why-groups-missing = /etc/group does not list { $user } in { $groups } yet. Add the groups, e.g. sudo usermod -aG { $csv } { $user }.
lab-why-groups-dropped = { $user } is no longer in { $groups }: usermod -G without -a replaces all supplementary groups. Put them back (sudo usermod -aG { $csv } { $user }) and always use -a to add.
lab-why-session-old = /etc/group lists { $user } in { $groups }, but this login started before that change and keeps its old groups. Log out and in again (type exit), or start a shell with the group: newgrp { $first }.
lab-why-module-not-loaded = The { $module } kernel module is not loaded: sudo modprobe { $module }.
lab-why-no-device = { $device } does not exist: the driver that creates it is not loaded.
lab-why-kfd-denied = /dev/kfd is { $owner }:{ $group } with mode { $mode }, and this login may not open it read-write. Join the { $group } group (and log in again), or make a udev rule that opens the device up.
lab-why-path-lost = PATH no longer contains { $dirs }: ls, grep and most commands stop working in this shell. Add to PATH instead of replacing it: export PATH=$PATH:/opt/rocm/bin
lab-why-not-on-path = { $command } is not on this shell's PATH. It is installed in { $where }; add that folder (or /opt/rocm/bin, which points at the current version) to PATH.
lab-why-login-path = A new login would not find { $command }: the PATH change lives only in this shell. Put it where login shells read it, e.g. ~/.bashrc or /etc/profile.d/rocm.sh.
lab-why-login-not-installed = { $command } is not installed on this machine yet, so no PATH can find it. Install ROCm first; then check that a new login has /opt/rocm/bin on its PATH.
lab-why-module-not-persisted = { $module } is loaded now but will not be after a reboot. List it in /etc/modules-load.d/{ $module }.conf (or /etc/modules).
lab-why-no-rule = No udev rule gives { $device } mode { $mode }. Write one in /etc/udev/rules.d/ in a file whose name ends in .rules.
lab-why-rule-ignored = { $file } is in /etc/udev/rules.d but its name does not end in .rules, so udev ignores it. Rename it, e.g. to 70-amdgpu.rules.
lab-why-rule-not-applied = The rule is written, but udev has not applied it to { $device } yet: sudo udevadm control --reload-rules && sudo udevadm trigger
lab-why-device-mode = { $device } has mode { $mode }, not { $want }.
lab-why-packages = Not installed yet: { $packages }.
lab-why-packages-half = { $package } is unpacked but not configured: its driver build failed, because the running kernel's headers were missing. Install them (sudo apt install { $headers }); apt then finishes { $package }.
lab-why-headers = The headers for the running kernel are missing: sudo apt install { $package } (DKMS needs them to build the driver).
lab-why-no-repo = No ROCm repository is configured: add AMD's source line under /etc/apt/sources.list.d/.
lab-why-repo-missing = { $file } points at { $uri }, which does not exist on repo.radeon.com: apt update gets 404 Not Found. Check the version in the URL.
lab-why-repo-key = apt does not trust the ROCm repository: the key named by signed-by= is missing or not a keyring. Fetch AMD's key and dearmor it into /etc/apt/keyrings/rocm.gpg.
lab-why-repo-update = The ROCm repository is configured, but apt has not read it yet: sudo apt update
lab-why-repo-codename = The AMD source line in { $file } is for "{ $suite }", but this node runs { $os } ({ $codename }). Use the suite that matches the node.
lab-why-no-cluster = This machine has no Kubernetes cluster.
lab-why-node-label = No GPU node carries the label { $label }: kubectl label node NODE { $label }
lab-why-device-plugin = The AMD GPU device plugin is not running, so no node advertises amd.com/gpu. Create its DaemonSet.
lab-why-no-gpu-pod = No pod in the { $namespace } namespace asks for amd.com/gpu yet.
lab-why-gpu-pod-elsewhere = The GPU pod { $pod } is in the { $other } namespace; this lab wants it in { $namespace }, where the team's jobs run. Create it there (kubectl apply -f gpu-pod.yaml, without -n).
lab-why-pod-pending = The pod { $pod } is still Pending; kubectl describe pod { $pod } says why.
lab-why-file = { $path } does not contain "{ $text }" yet.

lab-cannot-start = This lab cannot start here.
lab-checklist = Checklist
lab-complete = Lab complete: every step is done. Well done!
lab-hint = Hint { $n }
lab-solution = Solution
lab-reset-ask = Start this lab over on a fresh machine? Your changes in it are lost.
lab-terminal = Terminal (Enter to type here)
lab-terminal-focused = Terminal (F10 or Ctrl-] to leave)
lab-from-lesson = From the lesson: { $title }
labs-none = There are no labs in this course.
key-leave-terminal = leave the terminal
key-hint = hint
key-solution = solution
key-reset = start over
key-focus-terminal = type in the terminal
lab-status-solved = solved
lab-status-steps = { $done } of { $total } steps
cli-lab-plain = Line mode: the lab's shell line by line on standard input and output, each step announced as it is done (for screen readers; chosen without a terminal)
lab-plain-start = Lab: { $title }
lab-plain-commands = Type shell commands, one a line. :steps lists the steps, :hint gives a hint, :solution shows the solution, :quit ends the lab (so does the end of input).
lab-plain-step-done = Step done: { $step }
lab-plain-step-undone = Step no longer done: { $step }
lab-plain-steps-done = [done] { $step }
lab-plain-steps-todo = [to do] { $step }
lab-plain-hint = Hint { $n } for "{ $step }": { $text }
lab-plain-no-hint = No more hints for this step. Type :solution to see the solution.
lab-plain-all-done = Every step is done: no hint needed.
lab-plain-solution = Solution:
lab-plain-unknown = Unknown command { $cmd }. Commands: :steps, :hint, :solution, :quit.
