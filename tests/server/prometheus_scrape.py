#!/usr/bin/env python3
"""GET /metrics of a real `infergate serve` process, parsed back by the official Prometheus
Python client's text parser (python3-prometheus-client): after a known set of completions the
histograms, counters and gauges must agree with what the clients saw. Then a client drops a
stream mid-answer, and /metrics must show its KV blocks returned.

    prometheus_scrape.py INFERGATE
Exit 77 (skip) when the prometheus_client module is missing."""
import json
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
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


def scrape(base):
    with urllib.request.urlopen(base + "/metrics", timeout=30) as res:
        assert res.headers["Content-Type"].startswith("text/plain; version=0.0.4"), res.headers
        return res.read().decode()


def sample(text, name):
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if s.name == name:
                return s.value
    raise AssertionError(f"no sample {name}")


def check_dropped_stream_frees_kv(base):
    """A raw socket sends a long streaming request, reads its first bytes and closes."""
    url = urllib.parse.urlparse(base)
    body = json.dumps({"prompt": list(range(1, 200)), "max_tokens": 800, "ignore_eos": True,
                       "stream": True}).encode()
    with socket.create_connection((url.hostname, url.port)) as s:
        s.sendall(b"POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
        head = s.recv(4096)
        assert b"200 OK" in head, head
        during = scrape(base)
        assert sample(during, "infergate:num_requests_running") == 1, during
        assert sample(during, "infergate:kv_cache_usage_perc") > 0, during
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        after = scrape(base)
        if sample(after, "infergate:kv_cache_usage_perc") == 0:
            break
        time.sleep(0.05)
    assert sample(after, "infergate:kv_cache_usage_perc") == 0, after
    assert sample(after, "infergate:num_requests_running") == 0, after
    aborted = [s.value for f in text_string_to_metric_families(after) for s in f.samples
               if s.name == "infergate:request_success_total" and s.labels["finished_reason"] == "abort"]
    assert aborted == [1], aborted


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

        text = scrape(base)
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
        check_dropped_stream_frees_kv(base)
        print(f"ok: {len(families)} metric families parsed; {completion_tokens} tokens counted; "
              "a dropped stream's KV blocks returned")
    finally:
        server.send_signal(signal.SIGTERM)
        code = server.wait(timeout=30)
    if code != 0:
        print(f"FAIL: infergate serve exited {code} after SIGTERM")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
