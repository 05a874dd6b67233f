#!/usr/bin/env bash
# `infergate diagnose --verify` on every planted workload (docs/diagnose.md, "The planted
# workloads"): run the workload, diagnose it, and verify the dominant symptom's best remedy (or
# the first N, REMEDIES=N) in paired runs; print one line per remedy: the workload, the dominant
# rule, the remedy's sets, its metric, the candidate/baseline ratio with its 95% interval, the
# pairs and the outcome. Run it on a quiet machine (not while compiling); it takes about
# BUDGET minutes a workload at most.
#   [WORKLOADS="long-prompt ..."] [REMEDIES=1] [BUDGET=2] bench/campaigns/diagnose/measure_verify.sh BUILD_DIR [OUT_DIR]
set -euo pipefail
build=${1:?usage: measure_verify.sh BUILD_DIR [OUT_DIR]}
out=${2:-/tmp/infergate-diagnose-verify}
root="$(cd "$(dirname "$0")/../../.." && pwd)"
infergate="$build/cli/infergate"
workloads=${WORKLOADS:-"shared-prefix kv-preemption long-prompt prefill-interference harness-limited batch-limit repetitive"}
mkdir -p "$out"

echo "CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores"
for w in $workloads; do
  "$infergate" run "$root/workloads/diagnose-$w.json" --quiet --out "$out/$w.json" >/dev/null
  rm -rf "$out/verify-$w"
  "$infergate" diagnose "$out/$w.json" --verify --remedies "${REMEDIES:-1}" \
    --budget "${BUDGET:-2}" --out-dir "$out/verify-$w" --json "$out/$w.diagnosis.json" \
    >"$out/$w.diagnosis.txt" 2>"$out/$w.verify.log"
  python3 - "$w" "$out/$w.diagnosis.json" <<'EOF'
import json, sys
workload, path = sys.argv[1], sys.argv[2]
d = json.load(open(path))
for f in d["findings"]:
    for r in f["remedies"]:
        v = r.get("verification") or {}
        if v.get("outcome") in (None, "not run"):
            continue
        lo, hi = v.get("ratio_interval") or [None, None]
        ratio = "-" if v.get("ratio") is None else f"{v['ratio']:.3g} [{lo:.3g}, {hi:.3g}]"
        print(f"{workload}: dominant {d['dominant']}; {f['rule']}: {' '.join(r['sets'])}: "
              f"{r['metric']} x{ratio}, {v['pairs']} pairs, {v['seconds']:.0f} s: {v['outcome']}")
EOF
done
