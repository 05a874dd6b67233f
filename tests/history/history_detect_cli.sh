#!/usr/bin/env bash
# `infergate history detect` end to end: a history of 40 commits whose TPOT is 20% worse from
# commit 34 on is stored; detect names the change point with its commit range, records it
# (the same id on the next detect), writes JSON and Markdown; --newest exits 6 once the newest
# commits complete it and 0 before; bad flags exit 2 naming the flag.
#   history_detect_cli.sh INFERGATE WORK_DIR
set -uo pipefail
infergate=${1:?usage: history_detect_cli.sh INFERGATE WORK_DIR}
work=${2:?usage: history_detect_cli.sh INFERGATE WORK_DIR}
here=$(cd "$(dirname "$0")" && pwd)
fixture="$here/../gates/data/quickstart-baseline.json"
rm -rf "$work" && mkdir -p "$work/runs" && cd "$work"
status=0
fail() { echo "FAIL: $*"; status=1; }

# Commit i's repetitions scaled by 2% noise, and by 1.2 from commit 34 on. The system
# interpreter (ci/packages.txt), never whatever python3 PATH finds first.
/usr/bin/python3 "$here/make_history.py" "$fixture" runs 40 --noise 0.02 --step-at 34 --step 1.2 \
  --tag ab --seed 3

commit() { local c; c=$(printf '%02dab' "$1"); printf '%s' "$c$c$c$c$c$c$c$c$c$c"; }

# Before the second slow commit: one slow commit is not a change yet (30 commits before it: a
# step in the newest two is significant at alpha 0.005 from about that many on).
"$infergate" history add --db h.sqlite runs/r00*.json runs/r01*.json runs/r02*.json \
  runs/r03[0-4].json > add.log ||
  fail "add"
"$infergate" history detect --db h.sqlite --newest > newest0.txt
code=$?
[ $code = 0 ] && echo "ok: one slow commit: --newest exit 0" || fail "one slow commit: exit $code"

"$infergate" history add --db h.sqlite runs/r035.json > add.log || fail "add r035"
"$infergate" history detect --db h.sqlite --newest > newest1.txt
code=$?
[ $code = 6 ] && grep -q "worse" newest1.txt && echo "ok: the second slow commit completes it: exit 6" ||
  fail "second slow commit: exit $code: $(cat newest1.txt)"

"$infergate" history add --db h.sqlite runs/*.json > add.log || fail "add all"
"$infergate" history detect --db h.sqlite --metric tpot_ms.p50 > detect.txt || fail "detect"
grep -q "change point 1: tpot_ms.p50 of quickstart" detect.txt &&
  grep -q "commits $(commit 33 | cut -c1-12)..$(commit 34 | cut -c1-12)" detect.txt &&
  echo "ok: detect names the commit range" || fail "detect: $(cat detect.txt)"

"$infergate" history detect --db h.sqlite --metric tpot_ms.p50 --format json --out cp.json ||
  fail "detect json"
/usr/bin/python3 - "$(commit 34)" <<'PY' && echo "ok: JSON: one worse change point, +20% within its interval, same id" || status=1
import json, sys
d = json.load(open("cp.json"))
assert d["schema"] == "infergate.change_points/v1", d["schema"]
[c] = d["change_points"]
assert c["id"] == 1 and c["commit_after"] == sys.argv[1] and c["direction"] == "worse", c
lo, hi = c["change_interval"]
assert lo < 0.2 < hi and abs(c["change"] - 0.2) < 0.03 and c["p_value"] <= 0.01, c
PY
"$infergate" history detect --db h.sqlite --format markdown > cp.md || fail "markdown"
grep -q "^| 1 | tpot_ms.p50 of quickstart" cp.md && echo "ok: Markdown table" ||
  fail "markdown: $(cat cp.md)"

for bad in "--alpha 2:--alpha" "--permutations 10:--permutations 10 cannot" \
  "--min-effect -1:--min-effect" "--format html:--format html"; do
  args=${bad%%:*} want=${bad#*:}
  # shellcheck disable=SC2086
  out=$("$infergate" history detect --db h.sqlite $args 2>&1)
  code=$?
  [ $code = 2 ] && grep -q -- "$want" <<<"$out" && echo "ok: $args: exit 2" ||
    fail "$args: exit $code: $out"
done
exit $status
