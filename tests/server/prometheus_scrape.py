#!/usr/bin/env python3
"""GET /metrics of a real `infergate serve` process, parsed back by the official Prometheus
Python client's text parser (python3-prometheus-client): after a known set of completions the
histograms, counters and gauges must agree with what the clients saw.

    prometheus_scrape.py INFERGATE
Exit 77 (skip) when the prometheus_client module is missing."""
import json
import re
import signal
import subprocess
import sys
import urllib.request

try:
    from prometheus_client.parser import text_string_to_metric_families
except ImportError:
    print("SKIP: python3-prometheus-client is not installed")
    sys.exit(77)


def post(url, body):
    req = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as res:
        return res.read().decode()


def main():
    server = subprocess.Popen([sys.argv[1], "serve", "--model", "tiny", "--port", "0", "--threads", "2"],
                              stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        base = re.search(r"http://[0-9.]+:[0-9]+", line).group(0)
        prompt_tokens = completion_tokens = 0
        for i in range(6):
            body = {"prompt": [1, 5, 9, 11 + i], "max_tokens": 5 + i, "ignore_eos": True}
            if i % 2:
                body.update(stream=True, stream_options={"include_usage": True})
                chunks = [json.loads(l[6:]) for l in post(base + "/v1/completions", body).splitlines()
                          if l.startswith("data: {")]
                usage = chunks[-1]["usage"]
            else:
                usage = json.loads(post(base + "/v1/completions", body))["usage"]
            prompt_tokens += usage["prompt_tokens"]
            completion_tokens += usage["completion_tokens"]

        with urllib.request.urlopen(base + "/metrics", timeout=30) as res:
            assert res.headers["Content-Type"].startswith("text/plain; version=0.0.4"), res.headers
            text = res.read().decode()
        families = {f.name: f for f in text_string_to_metric_families(text)}

        def value(name, **labels):
            for family in families.values():
                for s in family.samples:
                    if s.name == name and all(s.labels.get(k) == v for k, v in labels.items()):
                        return s.value
            raise AssertionError(f"no sample {name} {labels} in:\n{text}")

        checks = {
            "prompt tokens": (value("infergate:prompt_tokens_total"), prompt_tokens),
            "generation tokens": (value("infergate:generation_tokens_total"), completion_tokens),
            "TTFT observations": (value("infergate:time_to_first_token_seconds_count"), 6),
            "E2E observations": (value("infergate:e2e_request_latency_seconds_count"), 6),
            "ITL observations": (value("infergate:inter_token_latency_seconds_count"), completion_tokens - 6),
            "finished by length": (value("infergate:request_success_total", finished_reason="length"), 6),
            "running": (value("infergate:num_requests_running"), 0),
            "KV usage": (value("infergate:kv_cache_usage_perc"), 0),
        }
        bad = {k: v for k, v in checks.items() if v[0] != v[1]}
        assert not bad, f"got, want: {bad}"
        for name in ("time_to_first_token_seconds", "inter_token_latency_seconds", "e2e_request_latency_seconds"):
            family = families[f"infergate:{name}"]
            assert family.type == "histogram", family.type
            buckets = [s.value for s in family.samples if s.name.endswith("_bucket")]
            assert buckets == sorted(buckets), f"{name}: buckets not cumulative"
            assert all(s.labels.get("model_name") == "tiny" for s in family.samples)
        assert value("infergate:prefix_cache_queries_total") >= 0
        print(f"ok: {len(families)} metric families parsed; {completion_tokens} tokens counted")
    finally:
        server.send_signal(signal.SIGTERM)
        code = server.wait(timeout=30)
    if code != 0:
        print(f"FAIL: infergate serve exited {code} after SIGTERM")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
