#!/usr/bin/env bash
# Runs every benchmark and whole-program measurement and writes BENCHMARKS.md with the machine,
# the date and the medians. Needs bubblewrap and tmux. Takes a few minutes; run on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
out=$(mktemp)
{
  for bench in app lab sim tool_in_lab report whole serve; do
    echo "## cargo bench --bench $bench"; echo; echo '```'
    cargo bench --quiet --bench "$bench" 2>/dev/null
    echo '```'; echo
  done
  # Lab open from outside (the release binary in a PTY, Enter to the prompt on screen) against
  # a bare bubblewrap login shell, with the temporary folder on the disk's /tmp.
  echo "## TMPDIR=/tmp cargo bench --bench lab_open"; echo; echo '```'
  TMPDIR=/tmp cargo bench --quiet --bench lab_open 2>/dev/null
  echo '```'; echo
  echo "## scripts/measure-app.sh"; echo; echo '```'
  scripts/measure-app.sh home
  scripts/measure-app.sh lab
  echo '```'
} > "$out"
{
  echo "# Benchmarks"
  echo
  echo "Measured by \`scripts/bench.sh\` on $(date -u +%Y-%m-%d): $(nproc) cores,"
  echo "$(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo) of memory,"
  echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -sr),"
  echo "$(rustc --version), $(bwrap --version), $(tmux -V). Medians; the targets and what the"
  echo "numbers mean are in the notes at the end."
  echo
  cat "$out"
  echo
  cat docs/benchmark-notes.md
} > BENCHMARKS.md
rm -f "$out"
echo "wrote BENCHMARKS.md"
