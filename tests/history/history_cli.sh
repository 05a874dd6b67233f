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
exit $status
