# `rocm-learn serve`: sessions kept over a dropped connection, limits, and the lab memory budget.

serve-reattached = Reattached: your session was kept
serve-refused-sessions = You have { $n } sessions open already (at most { $max }). Quit one of them first; a session whose connection dropped is taken back when you log in again.
serve-refused-connections = Too many connections for { $name } right now. Close the ones you do not use and try again.
serve-refused-busy = The class server has too many connections right now. Try again in a minute, or tell your instructor.
serve-opt-keep-detached = Minutes a learner's session is kept after their connection drops, to be taken back on the next login (default 10; 0: not kept)
serve-opt-max-startups = Connections not logged in yet: past START new ones are dropped at random (RATE percent), rising to all at FULL (default 10:30:100, as sshd's MaxStartups)
serve-opt-per-source = Connections not logged in yet from one address at once (default 5; raise it, and --max-startups, for a class behind one address)
serve-opt-sessions-per-learner = Sessions one learner may have open at once (default 3)
serve-opt-lab-memory = Memory the open labs may hold in all, in MiB (default: half of this machine's memory)
serve-class-detached = kept { $n } min
serve-labs-full = The class server is full for labs right now: other learners' labs hold its memory. Try again in a few minutes, or tell your instructor.

serve-mirror-help-asked = Asked { $name } to let you type; waiting for their yes (F9 on their side). F9: never mind
serve-mirror-helping = Typing in { $name }'s session, with their yes: your keys are theirs. F9: stop typing
serve-help-asked = Your instructor asks to type in your session: F9 lets them
serve-help-on = Your instructor is typing with you: F9 ends it
