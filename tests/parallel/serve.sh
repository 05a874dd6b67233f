#!/usr/bin/env bash
# `infergate serve` under mpirun with a tensor-parallel engine: a completion equals the
# single-rank server's, and SIGTERM to rank 0 ends the whole job with exit 0 (rank 0 finishes,
# then tells the other ranks to exit).
#   serve.sh MPIRUN INFERGATE
set -uo pipefail
mpirun=$1 infergate=$2
log=$(mktemp) single_log=$(mktemp)
trap 'rm -f "$log" "$single_log"; kill $job $single 2>/dev/null' EXIT
url_of() { for _ in $(seq 300); do grep -o "http://[0-9.]*:[0-9]*" "$1" && return; sleep 0.1; done; }
complete() {
  /usr/bin/python3 -c '
import json, sys, urllib.request
body = json.dumps({"prompt": [1, 7, 99, 300], "max_tokens": 12, "temperature": 0}).encode()
req = urllib.request.Request(sys.argv[1] + "/v1/completions", body, {"Content-Type": "application/json"})
print(json.load(urllib.request.urlopen(req, timeout=120))["choices"][0]["token_ids"])' "$1"
}

"$mpirun" --oversubscribe -np 2 "$infergate" serve --tensor-parallel 2 --threads 1 --port 0 \
  >"$log" 2>&1 &
job=$!
"$infergate" serve --threads 1 --port 0 >"$single_log" 2>&1 &
single=$!
url=$(url_of "$log") single_url=$(url_of "$single_log")
[ -n "$url" ] && [ -n "$single_url" ] || { echo "FAIL: a server did not start"; cat "$log"; exit 1; }
got=$(complete "$url") want=$(complete "$single_url")
status=0
[ "$got" = "$want" ] || { echo "FAIL: TP=2 gave $got, one rank $want"; status=1; }
for p in $(pgrep -f "$infergate serve --tensor-parallel"); do
  grep -qz "OMPI_COMM_WORLD_RANK=0" "/proc/$p/environ" 2>/dev/null && kill -TERM "$p"
done
wait "$job"
code=$?
[ "$code" = 0 ] || { echo "FAIL: the job exited $code after SIGTERM to rank 0"; cat "$log"; status=1; }
[ $status = 0 ] && echo "ok: TP=2 server answered $got, as one rank does; exit 0 on SIGTERM"
exit $status
