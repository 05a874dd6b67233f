#!/usr/bin/env bash
# `infergate generate --backend cuda` on a machine with no usable GPU: a non-zero exit, and a
# message naming the backend and CUDA's reason, before any model work.
#   no_device.sh path/to/infergate
set -euo pipefail
infergate=$1
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  echo "SKIP: this machine has a GPU (test_cuda_engine covers the backend here)"
  exit 77
fi
set +e
err=$("$infergate" generate --model tiny --backend cuda --max-tokens 2 2>&1)
rc=$?
set -e
echo "$err"
if [[ $rc -eq 0 ]]; then
  echo "FAIL: backend cuda succeeded without a GPU"
  exit 1
fi
for want in 'backend "cuda"' 'no CUDA device is usable here' 'use backend "cpu"'; do
  if [[ $err != *"$want"* ]]; then
    echo "FAIL: the message does not say: $want"
    exit 1
  fi
done
echo "PASS: refused with exit $rc"
