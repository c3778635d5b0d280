# Why a step of the managed-runtime lab is not done yet (AMD's rocm command, ~/.rocm).
rt-why-none = rocm has no managed runtime registered yet (rocm runtimes list says "installed: none"). Install ROCm { $version } as a runtime of your own: rocm install sdk with --version and --family (rocm examine shows this GPU's gfx code).
rt-why-version = The managed runtimes are ROCm { $have }, and the team needs { $version }. Without --version, rocm install sdk takes TheRock's release channel; ask for { $version } with --version { $version } and the exact gfx code in --family.
rt-why-family = The ROCm runtime of that release was built for { $have }; this node's GPUs are { $family }. ROCm 10 ships one payload per exact arch: install it again with --family { $family }.
rt-why-broken = The runtime folder { $root } no longer holds its environment (its .rocm-cli-runtime.json or bin/python is gone), so rocm cannot use it. Remove it with rocm runtimes uninstall and install it again.
rt-why-toolchain = Runtime { $key } has no compiler (toolchain=excluded in rocm runtimes list), and the team builds HIP code. A runtime cannot gain the toolchain later: install it again with --devel, which makes a second runtime beside the first.
rt-why-no-active = rocm has no active runtime. Make one the active default: rocm runtimes activate followed by its runtime_key (rocm runtimes list shows the keys).
rt-why-active-missing = rocm's settings name { $key } as the active runtime, but no such runtime is registered. Activate a registered one with rocm runtimes activate.
rt-why-active-other = The active runtime is still { $key } (ROCm { $have }), not ROCm { $version }: a declined install prompt or a later rocm runtimes activate leaves it so. Make the new one active: rocm runtimes activate, followed by its runtime_key.
rt-why-login-none = A new login finds no { $command } at all. Put the active runtime's program folder on PATH in a shell startup file: { $bin }
rt-why-login-system = A new login still runs the system ROCm's { $command } (through { $dir }): activating a runtime changes what rocm uses, not your PATH. Put { $bin } before /opt/rocm/bin in a shell startup file, then log in again.
rt-why-login-elsewhere = A new login runs { $command } from { $dir }, which is not the active runtime's. Put { $bin } first on PATH in a shell startup file, then log in again.
rt-why-proof = A new login would use the ROCm { $version } runtime; prove it from your own login: run rocm-sdk version and which hipcc (log in again first if you changed a startup file).
rt-why-proof-shell = rocm-sdk version ran in a shell whose PATH still leads to the system ROCm's programs: this login started before your change. Log in again (exit) and run it there.
