#!/usr/bin/env bash
# A rank of a tensor-parallel engine is killed (SIGKILL) mid-generation: the job must end within
# the collective timeout, non-zero, with messages naming the dead rank and what rank 0 was
# waiting in, instead of hanging.
#   killed_rank.sh MPIRUN INFERGATE
set -uo pipefail
mpirun=${1:?usage: killed_rank.sh MPIRUN INFERGATE}
infergate=${2:?usage: killed_rank.sh MPIRUN INFERGATE}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
readonly timeout_s=20

"$mpirun" --oversubscribe -np 2 "$infergate" generate --model tiny --tensor-parallel 2 --threads 1 \
  --max-tokens 900 --comm-timeout "$timeout_s" >"$log" 2>&1 &
job=$!
victim=""
for _ in $(seq 300); do  # the worker rank, once its part of the model runs
  for p in $(pgrep -f "$infergate generate"); do
    grep -qz "OMPI_COMM_WORLD_RANK=1" "/proc/$p/environ" 2>/dev/null && victim=$p
  done
  # a generated token (" t123"): the stderr line "tokenizer: ..." may land between it and the
  # prompt, since mpirun relays the two streams apart
  [ -n "$victim" ] && grep -qE " t[0-9]+ t[0-9]+" "$log" && break
  sleep 0.1
done
[ -n "$victim" ] || { echo "FAIL: rank 1 never started"; cat "$log"; kill "$job"; exit 1; }
kill -9 "$victim"
start_ms=$(( $(date +%s%N) / 1000000 ))
wait "$job"
code=$?
elapsed_ms=$(( $(date +%s%N) / 1000000 - start_ms ))
cat "$log" | tail -8
status=0
[ "$code" != 0 ] || { echo "FAIL: the job exited 0 after a rank was killed"; status=1; }
if (( elapsed_ms > (timeout_s + 10) * 1000 )); then
  echo "FAIL: the job took ${elapsed_ms} ms to end (collective timeout ${timeout_s} s)"; status=1
fi
grep -q "rank 1 .*exited on signal 9" "$log" || { echo "FAIL: no message names the killed rank"; status=1; }
grep -q "rank 0 of 2" "$log" || { echo "FAIL: rank 0 did not say what it was doing"; status=1; }
[ $status = 0 ] && echo "ok: the job ended ${elapsed_ms} ms after rank 1 was killed, exit $code"
exit $status
