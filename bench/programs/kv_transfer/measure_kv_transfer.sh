#!/usr/bin/env bash
# The prefill/decode KV transport on this machine (docs/disaggregation.md, "The model"): the
# read-time line of infergate_kv_transfer_bench over the transports UCX picks (shared memory
# here), over TCP, and with UCX's peer failure detection; beside it UCX's own peak for one-sided
# gets (ucx_perftest), so the transport's share of the link is a ratio measured in the same run.
# With results files of disaggregated runs (infergate run --requests), the model's predicted
# read time against each point's measured one.
#   bash bench/programs/kv_transfer/measure_kv_transfer.sh BUILD_DIR [RESULTS.json...]
set -euo pipefail
build=${1:?usage: measure_kv_transfer.sh BUILD_DIR [RESULTS.json...]}
shift
bench="$build/bench/programs/kv_transfer/infergate_kv_transfer_bench"
here="$(cd "$(dirname "$0")" && pwd)"
echo "CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores"

line() {  # label, then the bench's arguments (UCX_TLS from the environment)
  local label=$1
  shift
  local out
  out=$("$bench" --reads 15 "$@" 2>/dev/null)
  echo "$out" | sed -n 's/^json: //p' > "/tmp/kv-line-$label.json"
  printf '%-26s %s\n' "$label" "$(echo "$out" | grep '^model:')"
}
line default
UCX_TLS=tcp line tcp
line peer-failure-detection --peer-failure-detection

peak() {  # ucx_perftest one-sided get, 4 MiB messages, MB/s
  command -v ucx_perftest > /dev/null || { echo "n/a"; return; }
  local port=$((20000 + RANDOM % 20000))
  ucx_perftest -p "$port" > /dev/null 2>&1 &
  local server=$!
  sleep 0.5
  ucx_perftest -p "$port" 127.0.0.1 -t ucp_get -s 4194304 -n 500 2>/dev/null |
    awk '/^Final:/ {print $(NF-2)}'
  wait "$server" 2> /dev/null || true
}
echo "ucx_perftest ucp_get 4 MiB: default $(peak) MB/s, tcp $(UCX_TLS=tcp peak) MB/s"

for results in "$@"; do
  python3 "$here/kv_model_table.py" "$results" /tmp/kv-line-default.json
done
