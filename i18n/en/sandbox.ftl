# The lab sandbox and its supervisor.
lab-login-broken = Every new login ends as soon as it starts (last exit status { $status }), so logins have stopped. A startup file (/etc/environment, /etc/profile, /etc/profile.d/*, ~/.profile or ~/.bashrc) probably ends the shell. Press F5 to reset the machine.
check-path-dot-segment = "{ $path }" contains a "." or ".." segment; name the file by its plain absolute path inside the lab machine, like /etc/profile.d/rocm.sh.
check-file-simulator-own = "{ $path }" lies in { $folder }, which belongs to the simulated machine itself (its state and the checks); a pack cannot place a file there. Describe the machine in [machine] instead.
check-path-nul = "{ $path }" contains a NUL character, which no path can hold.
check-mode-special = "{ $mode }" sets the setuid, setgid or sticky bit, which a lab file may not have; use a mode a package would install, like "0644" or "0755".
lab-file-through-link = The lab file { $path } would be written through a symbolic link in the machine; name the file by its real path.
lab-unconfined = Note: this kernel has no Landlock, so the lab cannot keep you from writing the machine's state directly. It works, but its result is not tamper-proof and is marked so in your progress.
lab-on-disk = Note: here the lab's machine could not move into memory (bubblewrap grants no capabilities on this system), so what you write goes to a temporary folder on this computer's disk, removed when the lab ends.
lab-tool-no-login = { $tool }: this process belongs to no login of the lab machine (it outlived the shell that started it). Run it from your shell.
lab-tool-unreachable = { $tool }: cannot reach the lab machine ({ $error }). Log out with exit and use the new login.
