#!/usr/bin/env bash
# Cross-compiles the CPU kernels and their tests for aarch64 (NEON kernels; ci/aarch64/) with
# Debian's g++-aarch64-linux-gnu and runs the tests under qemu-user. Correctness only: qemu's
# timings say nothing about an ARM CPU. Exit status: 0 passed, 1 failed, 77 skipped (no cross
# compiler or qemu: ci/install-deps.sh installs both).
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in aarch64-linux-gnu-g++ qemu-aarch64; do
  if ! command -v "$tool" >/dev/null; then
    echo "SKIP: aarch64-check: $tool not found (ci/packages.txt lists its package)"
    exit 77
  fi
done

build=build/aarch64
launcher=()
if command -v ccache >/dev/null; then  # relative to this clone: another clone's objects hit too
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S ci/aarch64 -B "$build" -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/aarch64-linux-gnu.cmake" \
  -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >/dev/null
cmake --build "$build" -j 2 >/dev/null

# Every kernel test case, each at the generic and neon levels, except one that cannot hold under
# qemu-user: it caps the process's address space, and qemu's own reservations live in it too.
# Two processes, so both cores work once CI's fuzzing (beside this) is done: the paged-attention
# cases (70% of the emulated time) in one, the rest in the other.
qemu=(qemu-aarch64 -L /usr/aarch64-linux-gnu)
skip='"when the system refuses a thread the pool throws and joins the threads it started"'
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
echo "aarch64-check: $build/test_kernels under qemu-aarch64"
"${qemu[@]}" "$build/test_kernels" 'paged_attention*' >"$logs/attention" 2>&1 &
attention=$!
# qemu's default CPU has the dot-product extension, so the neon level ran the sdot kernels
# (quant_dotprod.cc); a Cortex-A53 has none, so there the same level must fall back to the
# portable integer kernels.
{
  "${qemu[@]}" "$build/test_kernels" "~$skip ~paged_attention*" &&
    echo "aarch64-check: the quantized kernels on a CPU without dotprod (qemu -cpu cortex-a53)" &&
    qemu-aarch64 -cpu cortex-a53 -L /usr/aarch64-linux-gnu "$build/test_kernels" \
      'quantized linear*,every ISA quantizes*'
} >"$logs/rest" 2>&1 &
rest=$!
status=0
wait "$attention" || status=1
wait "$rest" || status=1
cat "$logs/attention" "$logs/rest"
exit "$status"
