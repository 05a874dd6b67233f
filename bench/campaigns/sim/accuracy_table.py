"""Simulated against measured, per workload and sweep point (bench/campaigns/sim/measure_accuracy.sh).

Usage: accuracy_table.py [--cpu NAME] [--calibration FILE] [--json OUT] NAME REAL SIM [NAME REAL SIM ...]
Prints a Markdown table: each metric's simulated value, measured value and error; an error
within the target (10% at P50 and for QPS, 15% at P95) is marked ok, one beyond it "off".
"""
import argparse
import json
import sys

METRICS = [  # (label, summary path, target)
    ("QPS", ("request_throughput_rps",), 0.10),
    ("TTFT P50", ("ttft_ms", "p50"), 0.10),
    ("TTFT P95", ("ttft_ms", "p95"), 0.15),
    ("TPOT P50", ("tpot_ms", "p50"), 0.10),
    ("TPOT P95", ("tpot_ms", "p95"), 0.15),
]


def value(summary, path):
    v = summary
    for key in path:
        if not isinstance(v, dict) or key not in v:
            return None
        v = v[key]
    return v if isinstance(v, (int, float)) else None


def points(results):
    for p in results["points"]:
        label = "" if p.get("sweep") is None else f'{p["sweep"]["field"].split(".")[-1]}={p["sweep"]["value"]}'
        yield label, p["summary"], [r["summary"] for r in p["repetitions"]]


def spread(repetitions, path):
    """Half the range of the measured repetitions over their mean: the run-to-run noise."""
    values = [v for v in (value(r, path) for r in repetitions) if v is not None]
    if len(values) < 2 or sum(values) == 0:
        return None
    return (max(values) - min(values)) / 2 / (sum(values) / len(values))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cpu", default="")
    ap.add_argument("--calibration", default="")
    ap.add_argument("--json", default="")
    ap.add_argument("triples", nargs="+")
    a = ap.parse_args()
    if len(a.triples) % 3:
        sys.exit("accuracy_table.py: give NAME REAL SIM triples")
    rows, within, total = [], 0, 0
    for i in range(0, len(a.triples), 3):
        name, real_path, sim_path = a.triples[i : i + 3]
        real, sim = json.load(open(real_path)), json.load(open(sim_path))
        for (label, r, reps), (_, s, _) in zip(points(real), points(sim)):
            row = {"workload": name, "point": label, "metrics": {}}
            for metric, path, target in METRICS:
                rv, sv = value(r, path), value(s, path)
                if rv is None or sv is None or rv == 0:
                    continue
                err = sv / rv - 1
                row["metrics"][metric] = {"measured": rv, "simulated": sv, "error": err, "target": target,
                                          "measured_spread": spread(reps, path)}
                total += 1
                within += abs(err) <= target
            rows.append(row)
    print(f"Simulated vs measured on {a.cpu or 'this machine'}; calibration {a.calibration or 'default'}.")
    print(f"{within} of {total} figures within target (10% P50 and QPS, 15% P95).\n")
    print("| workload | point | " + " | ".join(m for m, _, _ in METRICS) + " |")
    print("|---|---|" + "---|" * len(METRICS))
    for row in rows:
        cells = []
        for metric, _, target in METRICS:
            m = row["metrics"].get(metric)
            if m is None:
                cells.append("n/a")
                continue
            mark = "ok" if abs(m["error"]) <= target else "**off**"
            noise = "" if m["measured_spread"] is None else f', ±{100 * m["measured_spread"]:.0f}%'
            cells.append(f'{m["simulated"]:.3g} / {m["measured"]:.3g} ({100 * m["error"]:+.0f}%{noise}, {mark})')
        print(f'| {row["workload"]} | {row["point"]} | ' + " | ".join(cells) + " |")
    print("\nEach cell: simulated / measured (error, and with several measured repetitions ± half their range")
    print("over their mean: the machine's own run-to-run noise).")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"cpu": a.cpu, "calibration": a.calibration, "within": within, "total": total, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
