"""The engine's forward pass on the trained models against PyTorch's, the outside reference:
models/trained/reference_logits.json holds PyTorch's last-position logits of prompts cut from the
held-out text (models/train/reference_logits.py --fixture, run where PyTorch is; CI has none).
Both the optimized path and the reference path (`infergate logits --reference`) must give the same
top token and logits within the F16 weights' rounding of PyTorch's float32 sums.

    /usr/bin/python3 tests/trained/reference_logits.py INFERGATE TRAINED_DIR
"""
import json
import math
import subprocess
import sys

# F16 weights are widened to float32 by both sides, so the difference is float32 summation order:
# measured 5-7e-7 of the logits' range (AMD EPYC Zen 5, avx512 and the reference path). 1e-4 leaves
# 150x for other kernels and still catches a wrong RoPE, norm or mask position by orders of
# magnitude (they move logits by whole units).
RELATIVE_TOLERANCE = 1e-4


def engine_logits(infergate, model, ids, reference):
    argv = [infergate, "logits", "--model", model, "--tokens", ",".join(map(str, ids)),
            "--threads", "2"] + (["--reference"] if reference else [])
    run = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    if run.returncode != 0:
        sys.exit(f"FAIL: {' '.join(argv[:4])} exited {run.returncode}: {run.stderr}")
    return json.loads(run.stdout)["logits"][-1]


def main():
    infergate, trained = sys.argv[1], sys.argv[2]
    with open(f"{trained}/reference_logits.json") as f:
        fixture = json.load(f)
    failures = 0
    for name, prompts in fixture["models"].items():
        for prompt in prompts:
            want = prompt["logits"]
            span = max(want) - min(want)
            top = max(range(len(want)), key=want.__getitem__)
            for reference in (False, True):
                got = engine_logits(infergate, f"{trained}/{name}", prompt["ids"], reference)
                worst = max(abs(a - b) for a, b in zip(got, want))
                got_top = max(range(len(got)), key=got.__getitem__)
                path = "reference" if reference else "optimized"
                ok = len(got) == len(want) and got_top == top and worst <= RELATIVE_TOLERANCE * span
                failures += not ok
                print(f"{'ok' if ok else 'FAIL'}: {name}, {len(prompt['ids'])} tokens, {path} path: "
                      f"top id {got_top} (PyTorch {top}), largest difference {worst:.2e} "
                      f"({worst / span:.1e} of the logits' range {span:.1f})")
                if not math.isfinite(worst):
                    failures += 1
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
