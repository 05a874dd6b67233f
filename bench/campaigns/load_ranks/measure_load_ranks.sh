#!/usr/bin/env bash
# Load from many ranks (docs/distributed.md, "Load from many hosts"), measured on this machine:
# for 1, 2 and 4 load ranks (`mpirun -np N infergate run`), the highest open-loop rate sustained
# (constant arrivals, rates swept upward; sustained = not stamped harness_limited, no failed
# request, achieved within 5% of offered)
#  A. against infergate_http_echo: one server, so the rate scales until that server saturates;
#  B. against an in-process echo target of each rank's own (echo-rate.json): the generators'
#     own ceiling, which scales until the cores run out;
# and at one common rate the merged TTFT P50/P99 and send lag next to one process's. Run it on a
# quiet machine (not while compiling).
#   [RANKS="1 2 4"] bench/campaigns/load_ranks/measure_load_ranks.sh BUILD_DIR [OUT_DIR]
set -euo pipefail
build=${1:?usage: measure_load_ranks.sh BUILD_DIR [OUT_DIR]}
out=${2:-/tmp/infergate-load-ranks}
root="$(cd "$(dirname "$0")/../../.." && pwd)"
infergate="$build/cli/infergate"
echo_bin="$build/bench/programs/http_echo/infergate_http_echo"
mpirun=(mpirun --oversubscribe --allow-run-as-root)
mkdir -p "$out"

"$echo_bin" --port 0 >"$out/echo.log" 2>&1 &
echo_pid=$!
trap 'kill $echo_pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  url=$(grep -o "http://[0-9.]*:[0-9]*" "$out/echo.log" 2>/dev/null | head -1 || true)
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { echo "infergate_http_echo did not start" >&2; exit 1; }

# run RANKS RATE FILE: one run of bench/http/client-rate.json (3 s of requests); with
# WORKLOAD=echo, of echo-rate.json instead.
run() {
  local cmd=("$infergate" run "$root/bench/http/client-rate.json" --quiet --out "$3"
             --set "target.url=$url" --set "load.rate=$2" --set "load.num_requests=$(($2 * 3))"
             --set target.timeout_s=10)
  if [ "${WORKLOAD:-http}" = echo ]; then
    cmd=("$infergate" run "$root/bench/campaigns/load_ranks/echo-rate.json" --quiet --out "$3"
         --set "load.rate=$2" --set "load.num_requests=$(($2 * 3))")
  fi
  if [ "$1" = 1 ]; then "${cmd[@]}"; else "${mpirun[@]}" -np "$1" "${cmd[@]}"; fi >/dev/null 2>&1
}

figures() {  # figures FILE: achieved limited errors ttft_p50 ttft_p99 lag_p99
  /usr/bin/python3 - "$1" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["points"][0]["summary"]
print(f'{s["request_throughput_rps"]:.0f} {str(s["harness_limited"]).lower()} {s["num_errors"]:.0f} '
      f'{s["ttft_ms"]["p50"]:.3f} {s["ttft_ms"]["p99"]:.3f} {s["send_lag_ms"]["p99"]:.3f}')
PY
}

echo "== CPU: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores"
sweep() {  # sweep LABEL RATES...: the highest sustained rate for each number of ranks
  local label=$1; shift
  echo "== $label: highest sustained rate by load ranks"
  printf "%6s %8s %10s %8s %7s\n" ranks rate achieved limited errors
  for ranks in ${RANKS:-1 2 4}; do
    best=0
    for rate in "$@"; do
      file="$out/$label-r$ranks-$rate.json"
      run "$ranks" "$rate" "$file" || { echo "run failed: $ranks ranks at $rate/s" >&2; break; }
      read -r achieved limited errors _ _ _ <<<"$(figures "$file")"
      printf "%6s %8s %10s %8s %7s\n" "$ranks" "$rate" "$achieved" "$limited" "$errors"
      [ "$limited" = false ] && [ "$errors" = 0 ] && [ "$achieved" -ge $((rate * 95 / 100)) ] ||
        break
      best=$rate
    done
    echo "ranks $ranks: highest sustained rate $best requests/s"
  done
}
sweep http 2000 4000 6000 8000 10000 12000 16000 20000 24000 32000
WORKLOAD=echo sweep echo 20000 40000 60000 80000 100000 120000 160000 200000 240000 320000

echo "== the same schedule (2000 requests/s) on one process and merged from ranks"
printf "%6s %12s %12s %14s\n" ranks ttft_p50_ms ttft_p99_ms send_lag_p99_ms
for ranks in ${RANKS:-1 2 4}; do
  file="$out/same-$ranks.json"
  run "$ranks" 2000 "$file"
  read -r _ _ _ p50 p99 lag <<<"$(figures "$file")"
  printf "%6s %12s %12s %14s\n" "$ranks" "$p50" "$p99" "$lag"
done
