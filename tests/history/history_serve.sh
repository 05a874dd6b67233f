#!/usr/bin/env bash
# `infergate history serve` on loopback, a real HTTP server: the landing page, a workload page
# and a run's report rendered on request; an unknown page and a missing run get 404, a POST
# 405; SIGTERM ends it with exit 0.
#   history_serve.sh INFERGATE WORK_DIR
set -uo pipefail
infergate=${1:?usage: history_serve.sh INFERGATE WORK_DIR}
work=${2:?usage: history_serve.sh INFERGATE WORK_DIR}
fixture="$(cd "$(dirname "$0")/../gates/data" && pwd)/quickstart-baseline.json"
rm -rf "$work" && mkdir -p "$work/runs"
status=0
fail() { echo "FAIL: $*"; status=1; }

/usr/bin/python3 - "$fixture" "$work/runs" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for i in range(6):
    doc["manifest"]["git"]["commit"] = f"{i:02d}ef" * 10
    doc["created_at"] = f"2026-12-01T00:{i:02d}:00Z"
    json.dump(doc, open(f"{sys.argv[2]}/r{i}.json", "w"))
PY
"$infergate" history add --db "$work/h.sqlite" "$work"/runs/*.json >/dev/null || fail "add"
"$infergate" history serve --db "$work/h.sqlite" --port 0 > "$work/serve.log" 2>&1 &
pid=$!
port=""
for _ in $(seq 1 100); do
  port=$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$work/serve.log")
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { fail "no listening line: $(cat "$work/serve.log")"; kill "$pid"; exit 1; }

/usr/bin/python3 - "$port" <<'PY' || status=1
import sys, urllib.request, urllib.error
base = f"http://127.0.0.1:{sys.argv[1]}"
def get(path, data=None):
    try:
        with urllib.request.urlopen(urllib.request.Request(base + path, data=data), timeout=30) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()
status, index = get("/")
assert status == 200 and "infergate results history" in index and "6 runs" in index, (status, index[:300])
page = index.split('href="workload-')[1].split('"')[0]
status, workload = get("/workload-" + page)
assert status == 200 and workload.count('data-chart="trend"') == 7, (status, workload[:300])
status, report = get("/runs/1.html")
assert status == 200 and "<svg" in report, (status, report[:300])
assert get("/runs/99.html")[0] == 404
assert get("/nothing.html")[0] == 404
assert get("/", data=b"x")[0] == 405
print("ok: history serve answers the landing page, a workload page, a run report, 404 and 405")
PY
kill -TERM "$pid"
wait "$pid"
code=$?
[ $code = 0 ] && echo "ok: SIGTERM ends it with exit 0" || fail "exit $code after SIGTERM"
exit $status
