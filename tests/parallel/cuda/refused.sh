#!/usr/bin/env bash
# `mpirun -np 2 infergate generate --backend cuda` with a setting a multi-rank cuda engine cannot
# run (CUDA graphs) is refused by name on any machine; on a machine without
# a usable GPU, pipeline parallelism is refused naming CUDA's reason, before any worker loads the
# model. Each exits non-zero, within the test's timeout (no rank left waiting).
#   refused.sh MPIRUN INFERGATE
set -uo pipefail
mpirun=${1:?usage: refused.sh MPIRUN INFERGATE}
infergate=${2:?usage: refused.sh MPIRUN INFERGATE}

# expect WANT ARGS...: the job fails and its output holds WANT.
expect() {
  local want=$1 out rc
  shift
  out=$("$mpirun" --oversubscribe -np 2 "$infergate" generate --backend cuda --max-tokens 2 \
    --threads 1 "$@" 2>&1)
  rc=$?
  if [[ $rc -eq 0 || $out != *"$want"* ]]; then
    echo "FAIL: $* exited $rc; wanted a failure saying: $want"
    echo "$out"
    exit 1
  fi
  echo "PASS: $* refused (exit $rc): $want"
}

expect "cuda_graphs = true (allowed: false with more than one rank" --model tiny \
  --tensor-parallel 2 --cuda-graphs
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  echo "this machine has a GPU: the no-device case is test_parallel_cuda's to cover"
  exit 0
fi
expect 'backend "cuda": no CUDA device is usable here' --model tiny --pipeline-parallel 2
expect 'backend "cuda": no CUDA device is usable here' --model moe-tiny --expert-parallel 2
