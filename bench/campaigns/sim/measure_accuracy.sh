#!/usr/bin/env bash
# The simulator's accuracy on this machine (docs/simulator.md, "Accuracy"): calibrate it from
# micro step timings (never from these workloads: they are held out), then run each workload
# for real and simulated and compare QPS, TTFT P50/P95 and TPOT P50/P95 per sweep point.
#
#   bash bench/campaigns/sim/measure_accuracy.sh [BUILD_DIR] [OUT_DIR]
#   CALIBRATION=FILE   use this calibration instead of measuring one
#   WORKLOADS="a b"    workload names under workloads/ (default: the list below)
#   HARDWARE=NAME      the hardware file the calibration is relative to (epyc-zen4-2core)
#   CALIBRATE_REPETITIONS=N  timings per step shape when calibrating (default 5)
#   REAL_REPETITIONS=N       repetitions of each real run, averaged (default 1)
#   LAYOUTS="tp2 pp2 ep2"    also parallel-small over 2 MPI ranks, tensor and pipeline parallel,
#                            and moe-tiny expert parallel (default: tp2 pp2; "" skips)
# Writes OUT_DIR/accuracy.md and accuracy.json; exit 0 when every figure was computed (the
# errors are reported, not judged: the table says where the model is wrong), 2 on failure.
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
build="${1:-$root/build/release}"
out="${2:-$root/out/sim-accuracy}"
infergate="$build/cli/infergate"
hardware="${HARDWARE:-epyc-zen4-2core}"
workloads="${WORKLOADS:-quickstart chat-short gate-decode goodput-slo long-prompt mixed-interference rate-sweep shared-system-prompt static-vs-continuous parallel-small}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"  # workloads resolve relative paths from their own folder
lscpu | sed -n 's/^Model name:[[:space:]]*//p' | head -1 > "$out/cpu.txt"

calibration="$(realpath -m "${CALIBRATION:-$out/calibration.json}")"
if [[ -z "${CALIBRATION:-}" ]]; then
  "$infergate" sim calibrate --hardware "$hardware" --repetitions "${CALIBRATE_REPETITIONS:-5}" \
    --out "$calibration" > "$out/calibrate.log"
  tail -1 "$out/calibrate.log" >&2
fi

pairs=()
for name in $workloads; do
  file="$root/workloads/$name.json"
  "$infergate" run "$file" --quiet --out "$out/$name.real.json" \
    --set "repetitions=${REAL_REPETITIONS:-1}" > /dev/null
  "$infergate" run "$file" --quiet --out "$out/$name.sim.json" \
    --set target.type=simulated --set "target.hardware=$hardware" \
    --set "target.calibration=$calibration" > /dev/null
  pairs+=("$name" "$out/$name.real.json" "$out/$name.sim.json")
  echo "measured $name" >&2
done
# Multi-rank layouts: the real run under mpirun, one thread per rank (two ranks of two threads
# each would oversubscribe the cores), the simulated one with the same engine settings.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for layout in ${LAYOUTS-tp2 pp2}; do
  case "$layout" in
    tp2) set_layout=(--set target.engine.tensor_parallel=2 --set target.engine.num_threads=1) ;;
    pp2) set_layout=(--set target.engine.pipeline_parallel=2 --set target.engine.num_threads=1) ;;
    ep2) set_layout=(--set target.model.preset=moe-tiny --set target.engine.expert_parallel=2
                     --set target.engine.num_threads=1) ;;
    *) echo "measure_accuracy: unknown layout '$layout' (tp2, pp2, ep2)" >&2; exit 2 ;;
  esac
  file="$root/workloads/parallel-small.json"
  mpirun --oversubscribe -np 2 "$infergate" run "$file" --quiet --out "$out/parallel-$layout.real.json" \
    "${set_layout[@]}" --set "repetitions=${REAL_REPETITIONS:-1}" > /dev/null
  "$infergate" run "$file" --quiet --out "$out/parallel-$layout.sim.json" "${set_layout[@]}" \
    --set target.type=simulated --set "target.hardware=$hardware" \
    --set "target.calibration=$calibration" > /dev/null
  pairs+=("parallel-small $layout" "$out/parallel-$layout.real.json" "$out/parallel-$layout.sim.json")
  echo "measured parallel-small $layout" >&2
done
/usr/bin/python3 "$root/bench/campaigns/sim/accuracy_table.py" --cpu "$(cat "$out/cpu.txt")" \
  --calibration "$calibration" --json "$out/accuracy.json" "${pairs[@]}" > "$out/accuracy.md"
cat "$out/accuracy.md"
