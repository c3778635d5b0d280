# `rocm-learn serve`: the app for a whole class over SSH.

serve-about = Run the app for a whole class over SSH: learners log in with their key, labs run on this server
serve-opt-class = The class folder: roster.toml, the host key, the pack and every learner's progress
serve-opt-listen = Address and port to listen on (default 127.0.0.1:2222, this machine only)
serve-opt-max-sessions = Most sessions open at once (default 40)
serve-opt-login-timeout = Seconds a connection has to log in (default 30)
serve-no-class = The class folder { $dir } does not exist. Make it and put a roster.toml in it (see docs/classroom.md).
serve-roster-unreadable = Could not read the roster { $path }: { $why }
serve-roster-bad = { $at }: { $why }
serve-roster-bad-name = { $at }: "{ $name }" cannot be a login name: use 1 to 32 lowercase letters, digits, "-" or "_", starting with a letter or digit.
serve-roster-twice = { $at }: "{ $name }" is on the roster twice; each login name is one person.
serve-roster-bad-key = { $at }: the key of "{ $name }" is not an OpenSSH public key line ({ $why }). Paste the whole line of their id_ed25519.pub.
serve-host-key-bad = The server's host key { $path } cannot be used: { $why }. Move it aside to have a new one made (learners will then see a changed host key).
serve-listen-failed = Could not listen on { $addr }: { $error }
serve-listening = Serving the class in { $dir } on { $addr } ({ $people } on the roster). Stop with Ctrl-C.
serve-refused-unknown = This name is not on the class roster. Log in with the name your instructor gave you.
serve-full = The class is full right now. Try again in a few minutes, or tell your instructor.
serve-needs-terminal = This needs a terminal: connect with ssh -t.
serve-not-allowed = Not available here. Connect without a command for the app, or use: lab ID, quiz ID, lesson ID, progress [--json|--csv].
serve-app-failed = The app could not start on the server. Tell your instructor.
serve-class-title = Class: { $learners ->
        [one] 1 learner
       *[other] { $learners } learners
    }. Stuck: same step for more than { $minutes } min.
serve-class-col-learner = Learner
serve-class-col-item = On
serve-class-col-step = Step
serve-class-col-time = Time on it
serve-class-col-hints = Hints
serve-class-col-solution = Solution
serve-class-not-started = not started
serve-class-stuck = (stuck)
serve-class-yes = viewed
serve-class-keys = ↑↓ Enter watch a learner  q quit  + / - stuck minutes  (every 2 s)
serve-class-secs = { $n } s
serve-class-mins = { $n } min
serve-class-hours = { $h } h { $m } min
serve-class-col-online = Connected
serve-class-online = now
serve-mirror-title = Watching { $name }, read only. F9: ask to type in it  Esc or q: back to the class
serve-mirror-ended = { $name }'s session has ended. Esc or q: back to the class
serve-mirror-absent = { $name } has no session on this server now. Esc or q: back to the class
serve-watched = Your instructor is watching
serve-opt-print-code = Print the class code (made on first use, kept in the class folder) and exit: learners not on the roster log in once with it
serve-code-note = The class code above lets learners not on the roster log in once: ssh -t -p PORT NAME@SERVER, where NAME is the login name they choose, then they type the code. Delete { $path } to stop new learners joining.
serve-code-bad = The class code file { $path } cannot be used: { $why }. Delete it to have a new code made.
serve-code-prompt = Class code
serve-code-instructions = "{ $name }" is not on the class roster yet. Type the class code from your instructor to join the class with this name and this key.
serve-refused-code = That class code is not right. Ask your instructor for the code and try again.
serve-refused-taken = The name "{ $name }" is already taken. Log in with another name.
serve-refused-bad-name = "{ $name }" cannot be a login name: use 1 to 32 lowercase letters, digits, "-" or "_", starting with a letter or digit.
serve-join-failed = The server could not add you to the class. Tell your instructor.
serve-refused-not-their-key = This key is not { $name }'s. Log in with the key you use for this class (ssh -i KEY), or ask your instructor to change the key on the roster.
serve-install-key-bad = The class server cannot sign learners' results: { $why }
serve-report-by-server = computed on the class server
serve-report-no-server-key = { $dir } holds no server key (install-key): nothing is marked as its server's.
serve-report-keys-bad = { $path } is not a record of learners' keys ({ $why }). Fix it, or move it aside and take each learner's own files again with report --trust-new-keys.
serve-too-many-sessions = --max-sessions { $n } is too many: each session's lab gets 65,536 host ids of its own, and they run out above { $max } sessions. Use { $max } or fewer.
serve-lrs-unsent = { $count ->
        [one] 1 statement waits
       *[other] { $count } statements wait
    } in { $dir } for a learning record store, but { $env } is not set: this server will not send them, and the class's new results will not reach the store either. Start the server with { $env } and { $auth } set to send them.
