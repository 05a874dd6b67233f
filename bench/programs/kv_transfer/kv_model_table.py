#!/usr/bin/env python3
"""Predicted against measured KV read time for each point of a disaggregated run.

usage: kv_model_table.py RESULTS.json LINE.json
RESULTS.json: `infergate run --requests` of a workload with a router target and prefill
workers; LINE.json: infergate_kv_transfer_bench's fitted line ({"latency_us", "bandwidth_mb_s"}).
The prediction for a request is latency + bytes / bandwidth, with the point's read-rate cap as
the bandwidth when it is lower; the table gives the medians over the requests that read KV.
"""
import json
import statistics
import sys


def main(results_path, line_path):
    with open(line_path) as f:
        line = json.load(f)
    with open(results_path) as f:
        results = json.load(f)
    name = results.get("workload", {}).get("name", results_path)
    print(f"{name}: predicted = {line['latency_us']:.0f} us + bytes / "
          f"{line['bandwidth_mb_s']:.0f} MB/s (or the cap)")
    print(f"{'point':>28} {'reads':>6} {'MB/read':>8} {'pred ms':>8} {'meas ms':>8} {'meas/pred':>9}")
    for point in results["points"]:
        label = json.dumps(point["sweep"]["value"]) if point.get("sweep") else "-"
        for rep in point["repetitions"]:
            router = rep.get("engine", {}).get("router", {})
            cap = router.get("disaggregation", {}).get("kv_read_rate_cap_mb_s", 0)
            bandwidth = line["bandwidth_mb_s"] if cap <= 0 else min(cap, line["bandwidth_mb_s"])
            pred, meas, sizes = [], [], []
            for r in rep.get("requests", []):
                k = r.get("kv_transfer")
                if not k or k.get("blocks_read", 0) == 0 or k.get("read_fallback"):
                    continue
                sizes.append(k["bytes"] / 1e6)
                pred.append(line["latency_us"] / 1e3 + k["bytes"] / (bandwidth * 1e6) * 1e3)
                meas.append(k["read_ms"])
            if not meas:
                print(f"{label:>28} {'0':>6} (no KV read: colocated, or every read fell back)")
                continue
            p, m = statistics.median(pred), statistics.median(meas)
            print(f"{label:>28} {len(meas):>6} {statistics.median(sizes):>8.2f} {p:>8.2f} "
                  f"{m:>8.2f} {m / p:>9.2f}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
