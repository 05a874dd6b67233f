#!/usr/bin/env bash
# The trends dashboard at scale (docs/history.md, "Dashboard"): a history of COMMITS commits of
# each of 10 workloads (one real run of each, copied per commit with its TPOT scaled by 3%
# noise and a 15% step at two thirds), then `history dashboard` timed, and the landing page and
# the largest workload page loaded in headless Chromium, timed against a blank page in the same
# run (the difference is what the page itself costs).
#   bench/campaigns/history/measure_dashboard.sh [BUILD_DIR] [OUT_DIR]    COMMITS=500
set -euo pipefail
cd "$(dirname "$0")/../../.."
build=${1:-build/release}
out=${2:-out/dashboard-scale}
commits=${COMMITS:-500}
infergate="$build/cli/infergate"
[ -x "$infergate" ] || { echo "measure_dashboard: $infergate is not built" >&2; exit 2; }
workloads="quickstart gate-decode chat-short goodput-slo shared-system-prompt long-prompt
  harness-overhead spec-repetitive static-vs-continuous mixed-interference"
rm -rf "$out" && mkdir -p "$out/seed" "$out/runs"
lscpu | sed -n 's/^Model name: *//p' | head -1 | sed 's/^/cpu: /'
for w in $workloads; do
  "$infergate" run "workloads/$w.json" --repeat 3 --quiet --out "$out/seed/$w.json" >/dev/null
done
/usr/bin/python3 - "$out/seed" "$out/runs" "$commits" <<'PY'
import copy, datetime, glob, json, os, random, sys
seed, runs, commits = sys.argv[1], sys.argv[2], int(sys.argv[3])
rng = random.Random(5)
for path in sorted(glob.glob(seed + "/*.json")):
    base = json.load(open(path))
    name = os.path.basename(path)[:-5]
    for p in base["points"]:
        for rep in p["repetitions"]:
            rep.pop("requests", None)
    for i in range(commits):
        doc = copy.deepcopy(base)
        doc["manifest"]["git"]["commit"] = f"{i:040x}"
        doc["manifest"]["git"]["dirty"] = False
        when = datetime.datetime(2026, 1, 1) + datetime.timedelta(hours=i)
        doc["created_at"] = when.strftime("%Y-%m-%dT%H:%M:%SZ")
        for p in doc["points"]:
            tpots = []
            for rep in p["repetitions"]:
                f = rng.gauss(1.0, 0.03) * (1.15 if i >= 2 * commits // 3 else 1.0)
                t = rep["summary"].get("tpot_ms")
                if isinstance(t, dict):
                    for k, v in t.items():
                        if k != "count" and isinstance(v, (int, float)):
                            t[k] = v * f
                    tpots.append(t)
            pt = p["summary"].get("tpot_ms")
            if isinstance(pt, dict) and tpots:
                for k in pt:
                    if k != "count" and isinstance(pt[k], (int, float)):
                        pt[k] = sum(t[k] for t in tpots) / len(tpots)
        if len(doc["points"]) == 1 and isinstance(doc["summary"].get("tpot_ms"), dict):
            doc["summary"]["tpot_ms"] = doc["points"][0]["summary"]["tpot_ms"]
        json.dump(doc, open(f"{runs}/{name}-{i:04d}.json", "w"))
PY
db="$out/history.sqlite"
start=$(date +%s%N)
"$infergate" history import --db "$db" "$out/runs" | tail -1
echo "import: $(( ($(date +%s%N) - start) / 1000000 )) ms"
for pass in first again; do
  start=$(date +%s%N)
  "$infergate" history dashboard --db "$db" --out "$out/site"
  echo "dashboard ($pass): $(( ($(date +%s%N) - start) / 1000000 )) ms"
done
start=$(date +%s%N)
"$infergate" history dashboard --db "$db" --out "$out/site-no-reports" --no-run-reports --no-detect
echo "dashboard (pages only, detection recorded): $(( ($(date +%s%N) - start) / 1000000 )) ms"

browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "no Chromium: page loads not measured"; exit 0; }
export HOME="$out/home"
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run
       --user-data-dir="$out/profile" --window-size=1400,3000)
echo "<!doctype html><title>blank</title><p>blank" > "$out/blank.html"
largest=$(ls -S "$out/site"/workload-*.html | head -1)
echo "largest workload page: $(basename "$largest") ($(wc -c <"$largest") bytes)"
load() {  # median of 3 screenshot renders, milliseconds
  for _ in 1 2 3; do
    local s
    s=$(date +%s%N)
    "$browser" "${flags[@]}" --screenshot="$out/shot.png" "file://$1" >/dev/null 2>&1
    echo $(( ($(date +%s%N) - s) / 1000000 ))
  done | sort -n | sed -n 2p
}
blank=$(load "$out/blank.html")
index=$(load "$out/site/index.html")
page=$(load "$largest")
echo "chromium render, median of 3: blank $blank ms, index $index ms, largest workload page $page ms"
echo "the pages' own cost: index $((index - blank)) ms, workload page $((page - blank)) ms"
