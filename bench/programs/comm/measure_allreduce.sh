#!/usr/bin/env bash
# The MPI all-reduce bus-bandwidth curve of this machine (docs/distributed.md): 8 B to 64 MiB on
# 2 ranks, then 4 (oversubscribed when the machine has fewer cores, which the output says).
# Writes OUT_DIR/allreduce-<N>ranks.json and prints a Markdown table of both curves.
# Usage: bench/programs/comm/measure_allreduce.sh [INFERGATE (build/release/cli/infergate)] [OUT_DIR (out/comm)]
# Measure on a quiet machine: other processes on the cores show up as slow, noisy rows.
set -euo pipefail
infergate=${1:-build/release/cli/infergate}
out=${2:-out/comm}
mkdir -p "$out"
cores=$(nproc)
echo "# $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $cores cores," \
  "$(mpirun --version | head -1)"
for ranks in 2 4; do
  flags=()
  if [ "$ranks" -gt "$cores" ]; then
    flags+=(--oversubscribe)
    echo "# $ranks ranks on $cores cores: oversubscribed (ranks share cores; not a bandwidth figure)"
  fi
  [ "$(id -u)" -ne 0 ] || flags+=(--allow-run-as-root)
  mpirun "${flags[@]}" -np "$ranks" "$infergate" bench-comm --ops all_reduce --min-bytes 8 \
    --max-bytes 64M --iters 50 --warmup 10 --json "$out/allreduce-${ranks}ranks.json"
done

# One Markdown table: size, then time and busbw per rank count.
python3 - "$out/allreduce-2ranks.json" "$out/allreduce-4ranks.json" <<'PY'
import json, sys
runs = [json.load(open(p)) for p in sys.argv[1:]]
rows = [{r["bytes"]: r for r in run["collectives"][0]["rows"]} for run in runs]
head = "| size (B) | " + " | ".join(
    f"{run['config']['world_size']} ranks: time (us) | busbw (GB/s)" for run in runs) + " |"
print(head)
print("|---:|" + "---:|---:|" * len(runs))
for size in sorted(rows[0]):
    cells = []
    for r in rows:
        row = r.get(size)
        cells += [f"{row['time_us']:.2f}", f"{row['busbw_gbps']:.3f}"] if row else ["", ""]
    print(f"| {size} | " + " | ".join(cells) + " |")
PY
