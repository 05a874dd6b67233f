#!/usr/bin/env bash
# The router's figures (docs/router.md, "What it costs"), measured on this machine:
#  A. added latency: bench/campaigns/router/router-overhead.json (200 requests/s of short streams) against
#     infergate_http_echo straight, and through `infergate router --upstream ECHO`; TTFT p50 and
#     p99 of each, medians over REPS runs in alternating order, and their difference.
#  B. the router's highest sustained rate on one HTTP thread: the same workload through the
#     router, rates swept upward; a rate is sustained when no request failed, the run is not
#     stamped harness_limited, and requests completed at 97% of the rate or more (below, a
#     queue is growing somewhere). The client's own ceiling (straight to the echo server) is
#     swept beside it: the router's figure cannot be read above it.
# The load generator, the echo server and the router share this machine's cores: run it on a
# quiet machine (not while compiling).
#   [PARTS="A B"] bench/campaigns/router/measure_router.sh BUILD_DIR [OUT_DIR] [REPS]
set -euo pipefail
build=${1:?usage: measure_router.sh BUILD_DIR [OUT_DIR] [REPS]}
out=${2:-/tmp/infergate-router-figures}
reps=${3:-7}
root="$(cd "$(dirname "$0")/../../.." && pwd)"
infergate="$build/cli/infergate"
echo_bin="$build/bench/programs/http_echo/infergate_http_echo"
workload="$root/bench/campaigns/router/router-overhead.json"
mkdir -p "$out"

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

# start_server LOG CMD...: starts CMD in the background and sets $url once it listens.
start_server() {
  local log=$1; shift
  rm -f "$log"
  "$@" >"$log" 2>&1 &
  pids+=($!)
  for _ in $(seq 600); do
    url=$(grep -o "listening on http://[0-9.]*:[0-9]*" "$log" 2>/dev/null | head -1 |
          sed 's/listening on //' || true)
    [ -n "$url" ] && return
    sleep 0.1
  done
  echo "server did not start: $*" >&2; cat "$log" >&2; exit 1
}

wait_healthy() {  # wait_healthy URL: until the router has a replica in rotation
  for _ in $(seq 100); do
    curl -sf "$1/health" >/dev/null 2>&1 && return
    sleep 0.1
  done
  echo "the router never became healthy" >&2; exit 1
}

summary() {  # summary FILE KEY...
  /usr/bin/python3 - "$@" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
out = []
for key in sys.argv[2:]:
    v = s
    for part in key.split("."):
        v = v[part]
    if isinstance(v, bool):
        v = str(v).lower()
    elif isinstance(v, float) and v.is_integer():
        v = int(v)
    out.append(str(v))
print(" ".join(out))
PY
}

run() {  # run URL FILE [--set ...]
  local url=$1 file=$2; shift 2
  "$infergate" run "$workload" --quiet --out "$file" --set "target.url=$url" "$@" >/dev/null 2>&1
}

start_server "$out/echo.log" "$echo_bin" --port 0
echo_url=$url
start_server "$out/router.log" "$infergate" router --upstream "$echo_url" --port 0 \
  --http-threads 1 --policy least-outstanding --health-interval-s 0.5
router_url=$url
wait_healthy "$router_url"
echo "CPU: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores"

parts=${PARTS:-A B}
if [[ $parts == *A* ]]; then
  echo "== A. added latency at 200 requests/s ($reps runs each, alternating)"
  : >"$out/ttft.txt"
  for i in $(seq "$reps"); do
    order="straight router"
    [ $((i % 2)) -eq 0 ] && order="router straight"
    for side in $order; do
      url=$([ "$side" = straight ] && echo "$echo_url" || echo "$router_url")
      run "$url" "$out/a-$side-$i.json"
      echo "$side $(summary "$out/a-$side-$i.json" ttft_ms.p50 ttft_ms.p99 num_errors)" \
        >>"$out/ttft.txt"
    done
  done
  /usr/bin/python3 - "$out/ttft.txt" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
def med(side, col):
    return statistics.median(float(r[col]) for r in rows if r[0] == side)
errors = sum(int(r[3]) for r in rows)
s50, r50, s99, r99 = med("straight", 1), med("router", 1), med("straight", 2), med("router", 2)
print(f"TTFT p50: straight {s50:.3f} ms, through the router {r50:.3f} ms: +{r50 - s50:.3f} ms "
      f"(x{r50 / s50:.2f})")
print(f"TTFT p99: straight {s99:.3f} ms, through the router {r99:.3f} ms: +{r99 - s99:.3f} ms")
print(f"failed requests: {errors}")
PY
fi
[[ $parts == *B* ]] || exit 0
echo "== B. highest sustained rate, the router on one HTTP thread"
printf "%10s %8s %10s %8s %7s %12s\n" side rate achieved limited errors ttft_p99_ms
for side in straight router; do
  url=$([ "$side" = straight ] && echo "$echo_url" || echo "$router_url")
  best=0
  for rate in 500 1000 1500 2000 3000 4000 5000 6000 8000 10000; do
    file="$out/b-$side-$rate.json"
    run "$url" "$file" --set "load.rate=$rate" --set "load.num_requests=$((rate * 3))"
    read -r achieved limited errors ttft <<<"$(summary "$file" request_throughput_rps \
      harness_limited num_errors ttft_ms.p99)"
    printf "%10s %8s %10.0f %8s %7s %12.3f\n" "$side" "$rate" "$achieved" "$limited" "$errors" "$ttft"
    kept_up=$(/usr/bin/python3 -c "print(int(float('$achieved') >= 0.97 * $rate))")
    [ "$limited" = "false" ] && [ "$errors" = "0" ] && [ "$kept_up" = "1" ] || break
    best=$rate
  done
  echo "$side: highest sustained rate $best requests/s"
done
