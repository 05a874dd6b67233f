#!/usr/bin/env bash
# `infergate history` end to end through the real binary on a real SQLite file: two adds at once
# both land; a writer killed with SIGKILL mid-way leaves only whole runs and the next add
# completes the set; a bad file exits 2 naming it and stores nothing; `show` gives back the
# stored file byte for byte.
#   history_cli.sh INFERGATE WORK_DIR
set -uo pipefail
infergate=${1:?usage: history_cli.sh INFERGATE WORK_DIR}
work=${2:?usage: history_cli.sh INFERGATE WORK_DIR}
fixture="$(cd "$(dirname "$0")/../gates/data" && pwd)/quickstart-baseline.json"
rm -rf "$work" && mkdir -p "$work/runs" && cd "$work"
status=0
fail() { echo "FAIL: $*"; status=1; }

# The system interpreter (ci/packages.txt), never whatever python3 PATH finds first.
# 120 distinct results files (another commit and time each).
/usr/bin/python3 - "$fixture" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for i in range(120):
    doc["manifest"]["git"]["commit"] = f"{i:040x}"
    doc["created_at"] = f"2026-12-01T{i // 60:02d}:{i % 60:02d}:00Z"
    json.dump(doc, open(f"runs/r{i:03d}.json", "w"))
PY

# The stored runs and whether each holds as many metric values as the first.
check_whole() {
  "$infergate" history export --db "$1" --format json --out "$work/export.json" || return 1
  /usr/bin/python3 - "$work/export.json" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
counts = {len(r["metrics"]) for r in runs}
print(len(runs), "whole" if len(counts) <= 1 else f"PARTIAL {sorted(counts)}")
PY
}

# Two writers at once.
"$infergate" history add --db two.sqlite runs/r0[0-4]*.json > a.log 2>&1 &
"$infergate" history add --db two.sqlite runs/r0[5-9]*.json > b.log 2>&1 &
wait
got=$(check_whole two.sqlite)
[ "$got" = "100 whole" ] && echo "ok: two writers at once: $got" || fail "two writers: $got"

# A writer killed mid-way, then the same add again.
"$infergate" history add --db killed.sqlite runs/*.json > killed.log 2>&1 &
pid=$!
sleep 0.4
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
got=$(check_whole killed.sqlite)
case $got in *whole) echo "ok: after SIGKILL: $got runs" ;; *) fail "after SIGKILL: $got" ;; esac
"$infergate" history add --db killed.sqlite runs/*.json > again.log 2>&1 || fail "add after kill"
got=$(check_whole killed.sqlite)
[ "$got" = "120 whole" ] && echo "ok: completed by the next add: $got" || fail "after re-add: $got"

# A bad file: exit 2, named, nothing stored.
/usr/bin/python3 -c "
import json; d = json.load(open('runs/r000.json')); d['points'][0]['repetitions'][0]['summary']['tpot_ms']['p50'] = 'fast'
json.dump(d, open('bad.json', 'w'))"
out=$("$infergate" history add --db bad.sqlite bad.json 2>&1)
code=$?
[ $code = 2 ] && grep -q "bad.json" <<<"$out" && echo "ok: bad file refused: exit 2" ||
  fail "bad file: exit $code: $out"
got=$(check_whole bad.sqlite)
[ "$got" = "0 whole" ] && echo "ok: nothing stored from it" || fail "bad file stored: $got"

# show gives the file back.
"$infergate" history show --db two.sqlite 1 --out shown.json || fail "show"
first=$("$infergate" history list --db two.sqlite | head -1)
cmp -s shown.json "$(sed -n 's/^stored \(.*\) as run 1$/\1/p' a.log b.log | head -1)" &&
  echo "ok: show gives back run 1 byte for byte" || fail "show differs ($first)"
# Another application's SQLite file: refused, and none of our tables added to it.
/usr/bin/python3 -c "
import sqlite3; c = sqlite3.connect('foreign.sqlite'); c.execute('CREATE TABLE users(name TEXT)'); c.commit()"
out=$("$infergate" history add --db foreign.sqlite runs/r000.json 2>&1)
code=$?
tables=$(/usr/bin/python3 -c "
import sqlite3; print(' '.join(r[0] for r in sqlite3.connect('foreign.sqlite').execute(
    \"SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name\")))")
[ $code = 2 ] && grep -q "foreign.sqlite is not an infergate history: it has tables (users)" <<<"$out" &&
  [ "$tables" = "users" ] && echo "ok: another application's database refused, untouched" ||
  fail "foreign database: exit $code, tables '$tables': $out"

# A marker that is not a version, a recorded size no stored file can have: named, not thrown.
cp two.sqlite damaged.sqlite
/usr/bin/python3 -c "
import sqlite3; c = sqlite3.connect('damaged.sqlite')
c.execute(\"UPDATE runs SET results_size = 4000000000000 WHERE id = 1\")
c.commit()"
out=$("$infergate" history show --db damaged.sqlite 1 --out /dev/null 2>&1)
code=$?
[ $code = 2 ] && grep -q "run 1: its recorded results_size is 4000000000000 bytes" <<<"$out" &&
  echo "ok: a 4 TB results_size is refused before allocating" || fail "results_size: exit $code: $out"
/usr/bin/python3 -c "
import sqlite3; c = sqlite3.connect('damaged.sqlite')
c.execute(\"UPDATE meta SET value = 'two' WHERE key = 'schema_version'\")
c.commit()"
out=$("$infergate" history list --db damaged.sqlite 2>&1)
code=$?
[ $code = 2 ] && grep -q "meta.schema_version is 'two', not a schema version number" <<<"$out" &&
  echo "ok: schema_version 'two' is named" || fail "schema_version 'two': exit $code: $out"

# Ctrl-C mid-add: the file being stored is finished, the schema is there, exit 130 says so.
# (Job control on, so the background add does not start with SIGINT ignored.)
set -m
"$infergate" history add --db interrupted.sqlite runs/*.json > int.log 2>&1 &
pid=$!
# Once the database file is there the add has begun (a busy machine can take longer to start it).
for _ in $(seq 100); do [ -e interrupted.sqlite ] && break; sleep 0.1; done
sleep 0.1
kill -INT "$pid" 2>/dev/null
wait "$pid"
code=$?
set +m
got=$(check_whole interrupted.sqlite)
if [ $code = 130 ] && grep -q "interrupted; [0-9]* of 120 files handled" int.log; then
  case $got in *whole) echo "ok: SIGINT mid-add: exit 130, $got runs" ;; *) fail "SIGINT: $got" ;; esac
elif [ $code = 0 ] && [ "$got" = "120 whole" ]; then
  echo "ok: the add ended before SIGINT came: $got"
else
  fail "SIGINT mid-add: exit $code, $got: $(tail -2 int.log)"
fi

# An unknown metric is named, with the known ones, instead of "0 change points".
out=$("$infergate" history detect --db two.sqlite --metric no_such_metric 2>&1)
code=$?
[ $code = 2 ] && grep -q "metric no_such_metric: not a metric the history stores" <<<"$out" &&
  grep -q "tpot_ms" <<<"$out" && echo "ok: detect names the unknown metric" ||
  fail "detect --metric no_such_metric: exit $code: $out"

# An interrupted run is refused, as run --history and baseline update refuse it.
/usr/bin/python3 -c "
import json; d = json.load(open('runs/r000.json')); d['incomplete'] = True; d['created_at'] = '2027-01-01T00:00:00Z'
json.dump(d, open('incomplete.json', 'w'))"
out=$("$infergate" history add --db incomplete.sqlite incomplete.json 2>&1)
code=$?
[ $code = 2 ] && grep -q "incomplete.json: marked incomplete" <<<"$out" &&
  echo "ok: an incomplete run is refused" || fail "incomplete run: exit $code: $out"

# import: random bytes named *.json are reported as not JSON, by name, exit 2; the rest imported.
mkdir -p imp && cp runs/r001.json imp/ && head -c 2000000 /dev/urandom >imp/noise.json
out=$("$infergate" history import --db import.sqlite imp 2>&1)
code=$?
[ $code = 2 ] && grep -q "not JSON: imp/noise.json: not JSON at byte" <<<"$out" &&
  grep -q "imported 1 results file" <<<"$out" && echo "ok: import names a file that is not JSON" ||
  fail "import of random bytes: exit $code: $out"
exit $status
