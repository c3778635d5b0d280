#!/usr/bin/env bash
# Runs the simulator crate's tests as root and as the ordinary user USER (run as root), and fails
# unless both runs pass the same tests: the simulator must take the same paths for either, with
# every effect on the real system behind its `Host` trait.
# Usage: scripts/sim-as-user.sh USER
set -euo pipefail
cd "$(dirname "$0")/.."
user=${1:?usage: scripts/sim-as-user.sh USER}
[ "$(id -u)" = 0 ] || { echo "sim-as-user: run as root" >&2; exit 2; }

bins=$(cargo test -p rocm-sim --no-run 2>&1 | sed -n 's/^ *Executable .*(\(.*\))$/\1/p')
[ -n "$bins" ] || { echo "sim-as-user: no test binary of rocm-sim" >&2; exit 2; }

# The binaries in a folder both can read, and a home of their own for each run.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
chmod 755 "$dir"
mkdir -m 700 "$dir/root-home" "$dir/user-home"
chown "$user" "$dir/user-home"
for b in $bins; do install -m 755 "$b" "$dir/"; done

# Prints "name result" for every test of every binary, sorted.
results() {
  local home=$1
  shift
  for b in $bins; do
    (cd "$dir" && HOME="$dir/$home" "$@" "$dir/$(basename "$b")" 2>&1 || true)
  done | sed -n 's/^test \(.*\) \.\.\. \([a-zA-Z]*\).*$/\1 \2/p' | sort
}

results root-home env >"$dir/root.txt"
results user-home setpriv --reuid="$user" --regid="$(id -g "$user")" --clear-groups >"$dir/user.txt"

fail=0
if ! diff -u --label root "$dir/root.txt" --label "$user" "$dir/user.txt"; then
  echo "sim-as-user: the simulator's tests differ between root and $user" >&2
  fail=1
fi
# A test may be ignored (alike in both runs, as the diff checks), never fail.
if grep -v ' \(ok\|ignored\)$' "$dir/root.txt"; then
  echo "sim-as-user: tests above did not pass" >&2
  fail=1
fi
[ -s "$dir/root.txt" ] || { echo "sim-as-user: no test ran" >&2; fail=1; }
[ $fail = 1 ] || echo "sim-as-user: $(wc -l <"$dir/root.txt") tests, alike as root and as $user"
exit $fail
