#!/usr/bin/env bash
# The checks that need an NVIDIA GPU, in one call (for a lent GPU machine, where time is short):
# build, the GPU-labelled tests (skipped cleanly elsewhere), and the NCCL collectives through
# `infergate bench-comm` on one rank (one GPU: the world-size-1 path). Results land in
# ${OUT:-out/gpu-check}. Without a GPU it says so and exits 0 (nothing to check).
#   bash ci/gpu-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-out/gpu-check}
mkdir -p "$out"
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "gpu-check: no NVIDIA GPU here: nothing to check (the GPU tests skip in ci/test.sh)"
  exit 0
fi
nvidia-smi -L | tee "$out/gpus.txt"
bash ci/build.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ctest --preset release -L gpu --output-on-failure --timeout 600 | tee "$out/ctest-gpu.txt"
mpirun -np 1 build/release/cli/infergate bench-comm --backend nccl --max-bytes 256M \
  --json "$out/nccl-np1.json" | tee "$out/nccl-np1.txt"
echo "gpu-check: done; results in $out"
