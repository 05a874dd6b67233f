#!/usr/bin/env bash
# Fails if clang-format (repo .clang-format) would change any C++ or CUDA source.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.h' '*.cc' '*.cu' '*.cuh' 2>/dev/null || true)
existing=()
for f in "${files[@]}"; do [ -f "$f" ] && existing+=("$f"); done
[ ${#existing[@]} -gt 0 ] || exit 0
# Batches of files per process, one process per core: one process per file spent over two of
# CI's minutes starting clang-format. Each file it would change gives a "file:line:col: error".
jobs=$(nproc 2>/dev/null || echo 2)
report=$(printf '%s\0' "${existing[@]}" |
  xargs -0 -n 64 -P "$jobs" clang-format --dry-run -Werror 2>&1 >/dev/null || true)
mapfile -t bad < <(sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: .*/\1/p' <<<"$report" | sort -u)
if [ ${#bad[@]} -gt 0 ]; then
  echo "clang-format would change: ${bad[*]}" >&2
  echo "fix with: clang-format -i ${bad[*]}" >&2
  exit 1
fi
if [ -n "$report" ]; then  # clang-format failed without naming a file to change
  echo "$report" >&2
  exit 1
fi
echo "format check: ${#existing[@]} files clean"
