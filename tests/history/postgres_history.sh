#!/usr/bin/env bash
# The results history on a real PostgreSQL server (docs/history.md): starts a throwaway server
# (postgres.sh), runs the store's PostgreSQL cases against it, then `infergate history` with a
# postgresql:// URL: two concurrent adds, list, detect and a refused URL. Exit 77 (skipped)
# without a PostgreSQL server installed.
#   postgres_history.sh TEST_HISTORY INFERGATE WORK_DIR
set -uo pipefail
test_history=${1:?usage: postgres_history.sh TEST_HISTORY INFERGATE WORK_DIR}
infergate=${2:?usage: postgres_history.sh TEST_HISTORY INFERGATE WORK_DIR}
work=${3:?usage: postgres_history.sh TEST_HISTORY INFERGATE WORK_DIR}
here=$(cd "$(dirname "$0")" && pwd)
fixture="$here/../gates/data/quickstart-baseline.json"
# The socket lives in a short /tmp path (Unix socket paths are limited to 107 bytes).
server=$(mktemp -d /tmp/infergate-pg.XXXXXX)
rm -rf "$work" && mkdir -p "$work/runs"
url=$(bash "$here/postgres.sh" start "$server")
code=$?
[ $code = 77 ] && { echo "no PostgreSQL server: skipped"; exit 77; }
[ $code = 0 ] || { echo "FAIL: the PostgreSQL server did not start"; exit 1; }
trap 'bash "$here/postgres.sh" stop "$server"' EXIT
echo "server: $url"
status=0
fail() { echo "FAIL: $*"; status=1; }

INFERGATE_TEST_POSTGRES_URL=$url "$test_history" "[.postgres]" || fail "the store's PostgreSQL cases"

/usr/bin/python3 - "$fixture" "$work/runs" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for i in range(40):
    doc["manifest"]["git"]["commit"] = f"{i:040x}"
    doc["created_at"] = f"2026-12-01T00:{i:02d}:00Z"
    json.dump(doc, open(f"{sys.argv[2]}/r{i:03d}.json", "w"))
PY
"$infergate" history add --db "$url" "$work"/runs/r00*.json "$work"/runs/r01*.json > "$work/a.log" 2>&1 &
"$infergate" history add --db "$url" "$work"/runs/r02*.json "$work"/runs/r03*.json > "$work/b.log" 2>&1 &
wait
runs=$("$infergate" history list --db "$url" | grep -c "^run ")
[ "$runs" = 40 ] && echo "ok: two concurrent adds over PostgreSQL: 40 runs" || fail "runs: $runs"
"$infergate" history detect --db "$url" > "$work/detect.txt" || fail "detect: $(cat "$work/detect.txt")"
grep -q "^0 change points in 7 series" "$work/detect.txt" && echo "ok: detect over PostgreSQL" ||
  fail "detect: $(cat "$work/detect.txt")"
out=$("$infergate" history list --db "postgresql://nobody:secret@/nodb?host=$server&port=5433" 2>&1)
code=$?
[ $code = 2 ] && grep -q "cannot connect" <<<"$out" && ! grep -q secret <<<"$out" &&
  echo "ok: a bad URL exits 2 without showing its password" || fail "bad URL: $code: $out"
exit $status
