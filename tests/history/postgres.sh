#!/usr/bin/env bash
# A throwaway PostgreSQL server for the history tests (docs/history.md): Debian's own server
# binaries, a cluster in a temporary folder, reachable only through a Unix socket there.
#   postgres.sh start DIR   prints the connection URL (postgresql:///infergate?host=...)
#   postgres.sh stop DIR
# As root the server runs as the `postgres` user (PostgreSQL refuses root). Exit 77 when no
# server binaries (or no postgres user) are installed.
set -euo pipefail
action=${1:?usage: postgres.sh start|stop DIR}
dir=${2:?usage: postgres.sh start|stop DIR}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$bin" ] && [ -x "$bin/initdb" ] || { echo "no PostgreSQL server installed" >&2; exit 77; }
# As root, the server's tools run as the postgres user (the postgresql package creates it) by
# setpriv with its numeric ids: no PAM, no name service, nothing beyond util-linux and libc.
as=()
if [ "$(id -u)" = 0 ]; then
  ids=$(awk -F: '$1 == "postgres" {print $3 ":" $4}' /etc/passwd)
  [ -n "$ids" ] || { echo "no postgres user (the postgresql package creates it)" >&2; exit 77; }
  as=(setpriv --reuid "${ids%:*}" --regid "${ids#*:}" --clear-groups)
fi
port=5433

case "$action" in
  start)
    rm -rf "$dir" && mkdir -p "$dir" && chmod 755 "$dir"
    [ "$(id -u)" = 0 ] && chown "$ids" "$dir"
    cd "$dir"  # the postgres user may not reach the caller's folder
    "${as[@]}" "$bin/initdb" -D "$dir/data" -A trust -U infergate -E UTF8 --no-sync \
      >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
    "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-k $dir -p $port -c listen_addresses= -c fsync=off" start >/dev/null ||
      { cat "$dir/server.log" >&2; exit 1; }
    "${as[@]}" "$bin/createdb" -h "$dir" -p "$port" -U infergate infergate
    echo "postgresql:///infergate?host=$dir&port=$port&user=infergate"
    ;;
  stop)
    cd /
    [ -d "$dir/data" ] && "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
    rm -rf "$dir"
    ;;
  *) echo "usage: postgres.sh start|stop DIR" >&2; exit 2 ;;
esac
