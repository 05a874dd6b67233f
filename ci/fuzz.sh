#!/usr/bin/env bash
# Builds the fuzz targets of the request parsers and of the KV source checks (fuzz/, clang +
# libFuzzer + ASan/UBSan, into build/fuzz) and runs each for a bounded time, one after the other.
# Usage: ci/fuzz.sh [SECONDS [LIBFUZZER_FLAG...]]
#   SECONDS   total fuzzing time, split evenly between the targets (default 60)
#   flags     passed to every target after ours (e.g. -jobs=4 -workers=4, -seed=1)
# Each target's corpus grows in build/fuzz/corpus/TARGET (kept between runs), seeded from
# fuzz/corpus/TARGET and fuzz/regressions/TARGET. Exit 0: no finding. Exit 1: a finding; its
# input is copied to build/fuzz/crashes/TARGET-<kind>-<sha1> and the target's log is printed.
# Exit 2: bad usage or no clang.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
[ $# -gt 0 ] && shift
if ! [[ $seconds =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: ci/fuzz.sh [SECONDS [LIBFUZZER_FLAG...]] (SECONDS a positive integer)" >&2
  exit 2
fi
if ! command -v clang++ >/dev/null; then
  echo "ci/fuzz.sh: clang++ not found; ci/install-deps.sh installs clang and libclang-rt-14-dev" >&2
  exit 2
fi

launcher=()
if command -v ccache >/dev/null; then  # relative to this clone: another clone's objects hit too
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S fuzz -B build/fuzz -DCMAKE_CXX_COMPILER=clang++ "${launcher[@]}" >/dev/null
cmake --build build/fuzz -j "$(nproc 2>/dev/null || echo 2)" >/dev/null

targets=(completion_request chat_request kv_source)
per_target=$((seconds / ${#targets[@]}))
[ "$per_target" -ge 1 ] || per_target=1
root=$PWD
mkdir -p build/fuzz/crashes
found=0
for target in "${targets[@]}"; do
  corpus=$root/build/fuzz/corpus/$target
  artifacts=$root/build/fuzz/artifacts/$target/
  log=build/fuzz/$target.log
  rm -rf "$artifacts"
  mkdir -p "$corpus" "$artifacts"
  inputs=("$corpus" "$root/fuzz/corpus/$target")
  [ -d "fuzz/regressions/$target" ] && inputs+=("$root/fuzz/regressions/$target")
  # Bodies up to 8 KiB (1 MiB ones were measured by hand: docs/server.md); a single allocation
  # over 256 MiB, 2 GiB in all, or an input taking over 10 s is a finding. Run from build/fuzz,
  # where -jobs puts its fuzz-N.log files.
  status=0
  # A target's own dictionary (fuzz/TARGET.dict) when it has one, else the request fields'.
  dict=$root/fuzz/request_fields.dict
  [ -f "fuzz/$target.dict" ] && dict=$root/fuzz/$target.dict
  (cd build/fuzz && "./fuzz_$target" "${inputs[@]}" -dict="$dict" \
    -max_total_time="$per_target" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
    -malloc_limit_mb=256 -artifact_prefix="$artifacts" -print_final_stats=1 "$@") \
    >"$log" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  for f in "$artifacts"*; do
    [ -f "$f" ] || continue
    cp "$f" "build/fuzz/crashes/$target-$(basename "$f")"
    echo "ci/fuzz.sh: finding in $target: build/fuzz/crashes/$target-$(basename "$f")" >&2
    found=1
  done
  if [ "$status" -ne 0 ]; then
    found=1
    echo "ci/fuzz.sh: fuzz_$target exited $status; its log ($log) ends:" >&2
    tail -n 40 "$log" >&2
  else
    echo "fuzz: $target: ${runs:-?} inputs in ${per_target}s, no finding (log: $log)"
  fi
done
exit "$found"
