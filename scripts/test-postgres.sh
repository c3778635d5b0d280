#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster on loopback for tests/serve_store.rs, as the postgres
# user, in a folder of its own on a free port. Source it: it exports ROCM_LEARN_TEST_PG (a URL
# to the cluster) and sets an EXIT trap that stops the cluster and removes the folder.
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$pg_bin" ] || ! id postgres >/dev/null 2>&1; then
  echo "test-postgres: PostgreSQL is not installed (apt-get install postgresql)" >&2
  return 1 2>/dev/null || exit 1
fi
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
pg_dir=$(mktemp -d "${TMPDIR:-/tmp}/rocm-learn-pg.XXXXXX")
[ "$(id -u)" = 0 ] && chown postgres: "$pg_dir"
pg_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
as_pg "$pg_bin/initdb" -D "$pg_dir/data" -A trust -U postgres >/dev/null
# Only loopback, the socket in the cluster's own folder; fsync stays on (the tests kill
# workers, not the database).
as_pg "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/log" -w \
  -o "-c listen_addresses=127.0.0.1 -p $pg_port -k $pg_dir -c max_connections=200" start >/dev/null
stop_test_postgres() {
  as_pg "$pg_bin/pg_ctl" -D "$pg_dir/data" -m fast -w stop >/dev/null 2>&1
  rm -rf "$pg_dir"
}
trap stop_test_postgres EXIT
export ROCM_LEARN_TEST_PG="postgres://postgres@127.0.0.1:$pg_port/postgres"
