#!/usr/bin/env python3
"""Paired start-up comparison of two rocm-learn binaries: each run starts the full-screen app in
a 120x40 pseudo-terminal (fresh data folder, English) and times until the home screen's tagline
appears, as `cargo bench --bench whole` does. Runs alternate A, B, A, B... so that both see the
same machine load; prints each side's median and the ratio of medians (B / A), and the median of
the per-pair ratios. Judges nothing.

Usage: scripts/first-frame-pair.py A_BINARY B_BINARY [PAIRS]   (default 40 pairs)
"""

import os
import pty
import select
import signal
import statistics
import struct
import sys
import tempfile
import termios
import fcntl
import time

MARK = b"Learn to run AMD"


def first_frame(exe: str, data: str) -> float:
    pid, fd = pty.fork()
    if pid == 0:
        # The terminal's size is set before the app starts, as a terminal window's would be.
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        env = dict(os.environ, ROCM_LEARN_DATA_DIR=data, TERM="xterm-256color", LANG="C.UTF-8")
        os.execve(exe, [exe, "--lang", "en"], env)
    start = time.perf_counter()
    seen = b""
    took = None
    while time.perf_counter() - start < 10:
        ready, _, _ = select.select([fd], [], [], 10)
        if not ready:
            break
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
        if MARK in seen:
            took = time.perf_counter() - start
            break
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    os.close(fd)
    if took is None:
        sys.exit(f"{exe}: no home screen within 10 s")
    return took


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    a, b = sys.argv[1], sys.argv[2]
    pairs = int(sys.argv[3]) if len(sys.argv) > 3 else 40
    ta, tb = [], []
    with tempfile.TemporaryDirectory() as da, tempfile.TemporaryDirectory() as db:
        # One warm-up run each: page cache and the data folder's first write.
        first_frame(a, da)
        first_frame(b, db)
        for _ in range(pairs):
            ta.append(first_frame(a, da))
            tb.append(first_frame(b, db))
    ma, mb = statistics.median(ta), statistics.median(tb)
    ratios = statistics.median(y / x for x, y in zip(ta, tb))
    print(f"A {a}: median {ma * 1000:.1f} ms ({pairs} runs)")
    print(f"B {b}: median {mb * 1000:.1f} ms ({pairs} runs)")
    print(f"ratio of medians B/A: {mb / ma:.2f}; median of paired ratios: {ratios:.2f}")


if __name__ == "__main__":
    main()
