#!/usr/bin/env bash
# Two builds side by side on this machine: the quickstart (in-process, one compute thread, as in
# docs/performance.md) and the engine micro-benchmarks, each binary run in alternating order so
# drifting machine load hits both alike; prints medians and the ratio NEW / OLD. For a refactor
# that must not move a figure (issue 14) or a change that should.
# Run it on a quiet machine (not while compiling). MICRO_FILTER=none: the quickstart alone.
#   bench/campaigns/compare_builds.sh OLD_BUILD_DIR NEW_BUILD_DIR [OUT_DIR] [REPS]
set -euo pipefail
old=${1:?usage: compare_builds.sh OLD_BUILD_DIR NEW_BUILD_DIR [OUT_DIR] [REPS]}
new=${2:?usage: compare_builds.sh OLD_BUILD_DIR NEW_BUILD_DIR [OUT_DIR] [REPS]}
out=${3:-/tmp/infergate-compare-builds}
reps=${4:-5}
root="$(cd "$(dirname "$0")/../.." && pwd)"
micro_filter=${MICRO_FILTER:-BM_EngineDecode|BM_EnginePrefill|BM_Forward}
mkdir -p "$out"

quickstart() {  # quickstart SIDE REP
  "${!1}/cli/infergate" run "$root/workloads/quickstart.json" --quiet \
    --out "$out/quickstart-$1-$2.json" --set target.engine.num_threads=1 >/dev/null
}
micro() {  # micro SIDE REP (a build from before bench/programs/ has it in bench/)
  local bin="${!1}/bench/programs/micro/infergate_micro"
  [ -x "$bin" ] || bin="${!1}/bench/infergate_micro"
  [ "$micro_filter" = none ] && return
  "$bin" --benchmark_filter="$micro_filter" \
    --benchmark_format=json --benchmark_out="$out/micro-$1-$2.json" >/dev/null
}
for r in $(seq "$reps"); do
  if [ $((r % 2)) = 1 ]; then order="old new"; else order="new old"; fi
  for side in $order; do quickstart "$side" "$r"; micro "$side" "$r"; done
  echo "rep $r of $reps done" >&2
done

/usr/bin/python3 - "$out" "$reps" "$micro_filter" <<'PY'
import json, statistics, sys
out, reps = sys.argv[1], int(sys.argv[2])
def summary(side, key):
    vals = []
    for r in range(1, reps + 1):
        v = json.load(open(f"{out}/quickstart-{side}-{r}.json"))["summary"]
        for part in key.split("."):
            v = v[part]
        vals.append(float(v))
    return statistics.median(vals)
print(f"quickstart (in-process, 1 thread), medians of {reps} runs each:")
print(f"  {'metric':28} {'old':>10} {'new':>10} {'new/old':>8}")
for key in ["ttft_ms.p50", "ttft_ms.p95", "tpot_ms.p50", "tpot_ms.p95", "output_throughput_tps",
            "peak_memory_bytes"]:
    a, b = summary("old", key), summary("new", key)
    print(f"  {key:28} {a:10.4g} {b:10.4g} {b / a:8.3f}")
def micro(side):
    times = {}
    for r in range(1, reps + 1):
        for bm in json.load(open(f"{out}/micro-{side}-{r}.json"))["benchmarks"]:
            times.setdefault(bm["name"], []).append(bm["real_time"])
    return {k: statistics.median(v) for k, v in times.items()}
if sys.argv[3] == "none":
    sys.exit(0)
a, b = micro("old"), micro("new")
print(f"infergate_micro (real time, medians of {reps} runs each):")
print(f"  {'benchmark':44} {'old':>10} {'new':>10} {'new/old':>8}")
for name in a:
    if name in b:
        print(f"  {name:44} {a[name]:10.4g} {b[name]:10.4g} {b[name] / a[name]:8.3f}")
PY
