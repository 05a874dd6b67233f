#!/usr/bin/python3
"""Writes a results history for the history tests and benchmarks (docs/history.md): COMMITS
copies of a results file, commit i labelled (f"{i:02d}" + TAG) * 10 and created i minutes after
2026-12-01T00:00Z, each repetition's TPOT scaled by Gaussian noise of coefficient of variation
NOISE and by STEP from commit STEP_AT on; the point's and the run's summaries stay the mean of
the repetitions (the results reader checks that), and per-request records are dropped.

  make_history.py FIXTURE OUT_DIR COMMITS [--noise 0.02] [--step-at K --step 1.2] [--tag ab]
                  [--seed 1]
"""
import argparse
import copy
import datetime
import json

parser = argparse.ArgumentParser()
parser.add_argument("fixture")
parser.add_argument("out_dir")
parser.add_argument("commits", type=int)
parser.add_argument("--noise", type=float, default=0.0)
parser.add_argument("--step-at", type=int, default=-1)
parser.add_argument("--step", type=float, default=1.0)
parser.add_argument("--tag", default="ab")
parser.add_argument("--seed", type=int, default=1)
args = parser.parse_args()

import random  # noqa: E402  (seeded below, after the arguments)

rng = random.Random(args.seed)
base = json.load(open(args.fixture))
start = datetime.datetime(2026, 12, 1)


def scaled(stats, factor):
    for k, v in stats.items():
        if k != "count" and isinstance(v, (int, float)):
            stats[k] = v * factor


for i in range(args.commits):
    doc = copy.deepcopy(base)
    doc["manifest"]["git"]["commit"] = (f"{i:02d}" + args.tag) * 10
    doc["manifest"]["git"]["dirty"] = False
    doc["created_at"] = (start + datetime.timedelta(minutes=i)).strftime("%Y-%m-%dT%H:%M:%SZ")
    reps = doc["points"][0]["repetitions"]
    for rep in reps:
        rep.pop("requests", None)
        factor = rng.gauss(1.0, args.noise) if args.noise > 0 else 1.0
        if 0 <= args.step_at <= i:
            factor *= args.step
        scaled(rep["summary"]["tpot_ms"], factor)
    point = doc["points"][0]["summary"]["tpot_ms"]
    for k in point:
        if k != "count" and isinstance(point[k], (int, float)):
            point[k] = sum(r["summary"]["tpot_ms"][k] for r in reps) / len(reps)
    doc["summary"]["tpot_ms"] = point
    json.dump(doc, open(f"{args.out_dir}/r{i:03d}.json", "w"))
