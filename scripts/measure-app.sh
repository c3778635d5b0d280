#!/usr/bin/env bash
# Measures the full-screen app in a real terminal (tmux): CPU used while idle for 10 s, and
# peak resident memory. Prints numbers; judges nothing.
# Usage: scripts/measure-app.sh [home|lab] [path/to/rocm-learn]   (default: home, target/release/rocm-learn)
#   home: visits every screen, then idles on the home screen.
#   lab:  opens the hsa-init-failed lab, runs a few commands in its shell, then idles there.
set -euo pipefail
mode=${1:-home}
bin=${2:-target/release/rocm-learn}
[ -x "$bin" ] || { echo "build first: cargo build --release" >&2; exit 2; }
command -v tmux >/dev/null || { echo "needs tmux" >&2; exit 2; }
data=$(mktemp -d)
session=rocm-learn-measure-$$
trap 'tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$data"' EXIT

case $mode in
  home) args="--lang ko" ;;
  lab) args="--lang ko lab hsa-init-failed" ;;
  *) echo "mode is home or lab" >&2; exit 2 ;;
esac
tmux new-session -d -s "$session" -x 120 -y 40 "env ROCM_LEARN_DATA_DIR=$data LANG=C.UTF-8 $bin $args"
sleep 1
pid=$(pgrep -f -n "^$bin $args")
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
hz=$(getconf CLK_TCK)

if [ "$mode" = home ]; then
  # Visit every screen so their layouts and caches exist.
  for k in 1 e l l e q 2 Enter G q q 3 Enter 2 Enter q q 5 k f d Escape Escape 6 q 7 Tab q 4 q; do
    tmux send-keys -t "$session" "$k"; sleep 0.1
  done
else
  for c in rocminfo 'ls -l /dev/kfd' 'sudo usermod -aG render,video learner' groups; do
    tmux send-keys -t "$session" "$c" Enter; sleep 0.5
  done
fi
sleep 1

before=$(ticks)
sleep 10
after=$(ticks)
idle=$(awk -v t=$((after - before)) -v hz="$hz" 'BEGIN { printf "%.2f", 100 * t / hz / 10 }')
peak=$(awk '/VmHWM/ {printf "%.1f", $2 / 1024}' "/proc/$pid/status")
echo "idle CPU over 10 s ($mode): ${idle}% of one core ($((after - before)) ticks at ${hz} Hz)"
echo "peak resident memory ($mode): ${peak} MiB"
