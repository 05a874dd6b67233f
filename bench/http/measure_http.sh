#!/usr/bin/env bash
# The HTTP target's figures (docs/performance.md, "HTTP client"), measured on this machine:
#  A. the openai target's highest sustained request rate: open-loop constant arrivals against
#     infergate_http_echo (answers at once, no model), rates swept upward; a rate is sustained
#     when the run is not stamped harness_limited (send lag did not grow) and no request failed.
#  B. the HTTP overhead: workloads/quickstart.json in-process versus workloads/quickstart-http.json
#     against `infergate serve` with the quickstart's engine settings: TTFT and TPOT p50 of each,
#     their difference and ratio (medians over REPS runs, the order alternating). Both engines
#     run one compute thread: on a 2-core machine a 2-thread pool stalls whenever any other
#     process takes a core, which swamps the difference measured. The server is started afresh
#     for every run, as the in-process engine is: a server left running keeps the previous
#     run's prompts in its prefix cache, and the same dataset then skips most of its prefill.
# Run it on a quiet machine (not while compiling): both figures are timings.
#   [PARTS="A B"] bench/http/measure_http.sh BUILD_DIR [OUT_DIR] [REPS]
set -euo pipefail
build=${1:?usage: measure_http.sh BUILD_DIR [OUT_DIR] [REPS]}
out=${2:-/tmp/infergate-http-figures}
reps=${3:-7}
root="$(cd "$(dirname "$0")/../.." && pwd)"
infergate="$build/cli/infergate"
echo_bin="$build/bench/programs/http_echo/infergate_http_echo"
mkdir -p "$out"

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

# start_server LOG CMD...: starts CMD in the background and sets $url once it listens.
start_server() {
  local log=$1; shift
  rm -f "$log"  # a previous run's URL must not be read back
  "$@" >"$log" 2>&1 &
  pids+=($!)
  for _ in $(seq 600); do
    url=$(grep -o "http://[0-9.]*:[0-9]*" "$log" 2>/dev/null | head -1 || true)
    [ -n "$url" ] && return
    sleep 0.1
  done
  echo "server did not start: $*" >&2; cat "$log" >&2; exit 1
}

summary() {  # summary FILE KEY...: prints summary values (whole numbers without ".0")
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

parts=${PARTS:-A B}
if [[ $parts == *A* ]]; then
echo "== A. openai target against infergate_http_echo: sustained request rate"
start_server "$out/echo.log" "$echo_bin" --port 0
echo_url=$url
printf "%8s %10s %8s %7s %14s %14s\n" rate achieved limited errors send_lag_p99 ttft_p99_ms
best=0
for rate in 1000 2000 3000 4000 5000 6000 7000 8000 10000 12000 16000 20000; do
  file="$out/rate-$rate.json"
  "$infergate" run "$root/bench/http/client-rate.json" --quiet --out "$file" \
    --set "target.url=$echo_url" --set "load.rate=$rate" --set "load.num_requests=$((rate * 3))" \
    >/dev/null 2>&1
  read -r achieved limited errors lag ttft <<<"$(summary "$file" request_throughput_rps \
    harness_limited num_errors send_lag_ms.p99 ttft_ms.p99)"
  printf "%8s %10.0f %8s %7s %14.3f %14.3f\n" "$rate" "$achieved" "$limited" "$errors" "$lag" "$ttft"
  [ "$limited" = "false" ] && [ "$errors" = "0" ] || break
  best=$rate
done
echo "highest sustained rate: $best requests/s"
fi
[[ $parts == *B* ]] || exit 0

echo "== B. HTTP overhead: quickstart in-process vs over HTTP (infergate serve, same engine)"
printf "%4s %16s %16s %16s %16s %8s\n" rep ttft_p50_inproc ttft_p50_http tpot_p50_inproc \
  tpot_p50_http limited
rows=()
run_inproc() {
  "$infergate" run "$root/workloads/quickstart.json" --quiet --out "$1" \
    --set target.engine.num_threads=1 >/dev/null 2>&1
}
run_http() {  # a fresh server per run: an empty prefix cache, as in-process
  start_server "$out/serve.log" "$infergate" serve --model tiny --max-num-seqs 32 --threads 1 \
    --port 0
  "$infergate" run "$root/workloads/quickstart-http.json" --quiet --out "$1" \
    --set "target.url=$url" >/dev/null 2>&1
  kill -TERM "${pids[-1]}"
  wait "${pids[-1]}" || { echo "infergate serve did not exit 0 on SIGTERM" >&2; exit 1; }
}
for r in $(seq "$reps"); do
  if [ $((r % 2)) = 1 ]; then  # alternate the order: drifting machine load hits both alike
    run_inproc "$out/inproc-$r.json"; run_http "$out/http-$r.json"
  else
    run_http "$out/http-$r.json"; run_inproc "$out/inproc-$r.json"
  fi
  read -r ti pi <<<"$(summary "$out/inproc-$r.json" ttft_ms.p50 tpot_ms.p50)"
  read -r th ph limited <<<"$(summary "$out/http-$r.json" ttft_ms.p50 tpot_ms.p50 harness_limited)"
  printf "%4s %16.3f %16.3f %16.3f %16.3f %8s\n" "$r" "$ti" "$th" "$pi" "$ph" "$limited"
  rows+=("$ti $th $pi $ph")
done
printf "%s\n" "${rows[@]}" | /usr/bin/python3 -c '
import statistics, sys
rows = [list(map(float, l.split())) for l in sys.stdin if l.strip()]
ti, th, pi, ph = (statistics.median(c) for c in zip(*rows))
print(f"median TTFT p50: in-process {ti:.3f} ms, HTTP {th:.3f} ms: {th - ti:+.3f} ms, x{th / ti:.2f}")
print(f"median TPOT p50: in-process {pi:.3f} ms, HTTP {ph:.3f} ms: {ph - pi:+.3f} ms, x{ph / pi:.2f}")
'
