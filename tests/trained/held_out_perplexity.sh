#!/usr/bin/env bash
# A guard against a loader or forward-pass regression on the trained target: its perplexity on
# every chunk of the held-out text (`infergate eval`, computed, nothing sampled) stays within 1% of
# the figure docs/trained-models.md gives.
#   tests/trained/held_out_perplexity.sh INFERGATE TRAINED_DIR WORK_DIR
set -euo pipefail
infergate=$1 trained=$2 work=$3
documented=25.58  # docs/trained-models.md, "Figures": eval --ctx 256 on held_out.txt
mkdir -p "$work"
"$infergate" eval --model "$trained/target" --text "$trained/held_out.txt" --ctx 256 \
  --threads 2 --out "$work/eval.json"
/usr/bin/python3 - "$work/eval.json" "$documented" <<'PY'
import json, sys
q = json.load(open(sys.argv[1]))
documented = float(sys.argv[2])
ppl = q["perplexity"]
off = ppl / documented - 1
print(f"held-out perplexity {ppl:.4f} over {q['positions']} positions; documented {documented}: "
      f"{100 * off:+.3f}%")
sys.exit(0 if abs(off) <= 0.01 else 1)
PY
