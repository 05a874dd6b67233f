#!/usr/bin/env bash
# The checks that need an NVIDIA GPU, in one call (a lent GPU machine's time is short; this is
# meant to finish within 10 minutes on an H100/H200: each step below has its own time limit):
#   1. configure with CUDA (sm_90 only unless CUDA_ARCHS says otherwise) and build the GPU parts
#   2. the GPU-labelled tests: every CUDA kernel against its CPU twin, the cuda backend against
#      the CPU engine; when MPI is there, NCCL (on every GPU) and the multi-rank engine on GPUs
#   3. the kernel micro-benchmarks and the engine's speed on `small` (decode 1 and 32, prefill
#      512), Google Benchmark JSON, with the roofline measured first
#   4. the quickstart workload on backend cpu and backend cuda (NVML and CUPTI reading it)
#   5. a short table last, and one JSON summary: $OUT/summary.json (ci/gpu-summary.py)
# Results land in ${OUT:-out/gpu-check}. Without a GPU it says so and exits 0. On a machine with
# no apt or network, run `bash ci/gpu-bundle.sh` here first and carry .gpu-bundle/ (all the
# libraries configure and the build need beyond a compiler, CMake, make/ninja and CUDA).
#   bash ci/gpu-check.sh
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${OUT:-out/gpu-check}
mkdir -p "$out"
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "gpu-check: no NVIDIA GPU here: nothing to check (the GPU tests skip in ci/test.sh)"
  exit 0
fi
nvidia-smi -L | tee "$out/gpus.txt"
start=$(date +%s)
step() { echo "== gpu-check [$(($(date +%s) - start)) s] $*"; }

# The libraries (the carried .gpu-bundle/, else apt, else the machine's) and the configure, in
# ci/gpu-configure.sh: ci/gpu-bundle-check.sh runs the same code in a bare Debian 12 chroot. It
# exports LD_LIBRARY_PATH for the bundle's libraries, which the tests and programs below need.
step "configure and build"
build=build/gpu
# shellcheck source=ci/gpu-configure.sh
source ci/gpu-configure.sh
gpu_configure "$build" "$out/configure.txt" || {
  echo "gpu-check: configure failed: nothing built (the log: $out/configure.txt)"
  exit 1
}
wanted=(infergate test_cuda_kernels test_cuda_engine infergate_cuda_micro test_parallel_cuda)
grep -q "NCCL communicator ON" "$out/configure.txt" && wanted+=(test_dist_nccl)
mapfile -t targets < <(gpu_targets "$build" "${wanted[@]}")
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}" >"$out/build.txt" 2>&1 ||
  { grep -E "error|Error" "$out/build.txt" | head -40; exit 1; }

step "GPU tests"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ctest --test-dir "$build" -L gpu --output-on-failure --timeout 180 2>&1 | tee "$out/ctest-gpu.txt"
tests_rc=${PIPESTATUS[0]}
# The NCCL test again over every GPU (one rank each), where there are several and MPI.
gpus=$(grep -c "^GPU " "$out/gpus.txt")
if ((gpus > 1)) && [[ -x $build/tests/dist/test_dist_nccl ]] && command -v mpirun >/dev/null; then
  step "NCCL over all $gpus GPUs"
  timeout 120 mpirun --oversubscribe -np "$gpus" "$build/tests/dist/test_dist_nccl" 2>&1 |
    tail -20 | tee "$out/nccl-all-gpus.txt"
  [[ ${PIPESTATUS[0]} -eq 0 ]] || tests_rc=1
fi

step "kernel micro-benchmarks and the engine's speed"
timeout 180 "$build/bench/programs/cuda/infergate_cuda_micro" --benchmark_min_time=0.1s \
  --benchmark_counters_tabular=true --benchmark_out="$out/cuda-micro.json" \
  --benchmark_out_format=json 2>&1 | tee "$out/cuda-micro.txt"

step "quickstart, cpu then cuda"
timeout 60 "$build/cli/infergate" run workloads/quickstart.json --quiet \
  --out "$out/quickstart-cpu.json" 2>&1 | tail -12 | tee "$out/quickstart-cpu.txt"
# The cuda run also traces its kernels (CUPTI) into the results and the Perfetto trace.
timeout 60 "$build/cli/infergate" run workloads/quickstart.json --quiet --cupti \
  --set target.engine.backend=cuda --trace "$out/quickstart-cuda-trace.json" \
  --out "$out/quickstart-cuda.json" 2>&1 | tail -12 | tee "$out/quickstart-cuda.txt"

step "summary"
python3 ci/gpu-summary.py "$out" | tee "$out/summary.txt"
echo "gpu-check: done in $(($(date +%s) - start)) s; results in $out (tests exit $tests_rc)"
exit "$tests_rc"
