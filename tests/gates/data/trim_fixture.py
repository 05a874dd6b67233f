#!/usr/bin/env python3
"""Shrinks a results file written by `infergate run` into a small test fixture.

Keeps it a valid "infergate.results/v1" file: drops the per-sample engine statistics from
the timelines (the repetitions' final `engine` object, with `step_time_ms`, stays), rounds
request times to microseconds and resource samples to a few digits, and writes compact JSON.
Summaries are left exactly as the tool wrote them.

usage: trim_fixture.py IN.json OUT.json
"""
import json
import sys


def rounded(value, digits):
    if isinstance(value, float):
        return round(value, digits)
    if isinstance(value, list):
        return [rounded(v, digits) for v in value]
    return value


def trim(doc):
    for point in doc["points"]:
        for rep in point["repetitions"]:
            for sample in rep.get("timeline", []):
                sample.pop("engine", None)
                for key in list(sample):
                    sample[key] = rounded(sample[key], 2)
            for request in rep.get("requests", []):
                for key in list(request):
                    request[key] = rounded(request[key], 3)
    return doc


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        doc = json.load(f)
    with open(sys.argv[2], "w") as f:
        json.dump(trim(doc), f, separators=(",", ":"), sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
