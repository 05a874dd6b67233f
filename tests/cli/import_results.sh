#!/usr/bin/env bash
# `infergate import` through the real binary (docs/metrics.md, "Other tools' results"): the
# files vllm bench serve, AIPerf, GuideLLM and inference-perf write (tests/common/imports/
# fixtures, shaped as each tool writes them) become results files stored in a history; six runs
# a side of vllm bench serve, imported as repetitions, are gated by compare (a 30% slower TTFT
# regresses, exit 1); a truncated file, a negative latency and an unknown version are refused
# naming the field, with nothing written or stored.
#   import_results.sh INFERGATE WORK_DIR SOURCE_DIR
set -uo pipefail
infergate=${1:?usage: import_results.sh INFERGATE WORK_DIR SOURCE_DIR}
work=${2:?usage: import_results.sh INFERGATE WORK_DIR SOURCE_DIR}
src=${3:?usage: import_results.sh INFERGATE WORK_DIR SOURCE_DIR}
rm -rf "$work" && mkdir -p "$work/out" && cd "$work" || exit 1
source "$src/tests/cli/expect.sh"
fixtures="$src/tests/common/imports/fixtures"
py=/usr/bin/python3
runs() { "$infergate" history list --db h.sqlite | grep -c '^run '; }

expect 0 "stored out/inference_perf_summary_lifecycle_metrics.infergate.json as run 4" -- \
  "$infergate" import "$fixtures/vllm_bench_serve.json" "$fixtures/aiperf_profile_export.json" \
  "$fixtures/guidellm_benchmarks.json" "$fixtures/inference_perf_summary_lifecycle_metrics.json" \
  --out-dir out --db h.sqlite
[ "$(runs)" = 4 ] || { echo "FAIL: the history holds $(runs) runs, not 4"; status=1; }
expect 0 "vllm-bench-serve/meta-llama/Llama-3.1-8B-Instruct" -- "$infergate" history list --db h.sqlite
$py -c 'import json,sys; d=json.load(open(sys.argv[1])); s=d["points"][0]["repetitions"][0]["summary"]; assert abs(s["ttft_ms"]["mean"]-109.142857)<1e-5 and d["workload"]["imported"]["tool"]=="vllm bench serve", s["ttft_ms"]' \
  out/vllm_bench_serve.infergate.json || { echo "FAIL: the vLLM import's TTFT mean"; status=1; }

# Six runs a side, the candidate's latencies 30% longer (each run jittered by up to 2%).
$py - "$fixtures/vllm_bench_serve.json" <<'PY'
import json, random, re, sys
source = json.load(open(sys.argv[1]))
random.seed(7)
def scaled(f):
    d = json.loads(json.dumps(source))
    for k in list(d):
        if re.match(r"(mean|median|std|p\d+)_(ttft|tpot|itl|e2el)_ms$", k):
            d[k] *= f
    d["ttfts"] = [x * f for x in d["ttfts"]]
    d["latencies"] = [x * f for x in d["latencies"]]
    d["itls"] = [[x * f for x in gaps] for gaps in d["itls"]]
    return d
for side, factor in (("a", 1.0), ("b", 1.3)):
    for i in range(6):
        json.dump(scaled(factor * (1 + random.uniform(-0.02, 0.02))), open(f"{side}{i}.json", "w"))
PY
expect 0 "6 runs of vllm bench serve" -- "$infergate" import a?.json --as-repetitions base.json
expect 0 "6 runs of vllm bench serve" -- "$infergate" import b?.json --as-repetitions cand.json
expect 1 "ttft-p95 .*regressed" -- "$infergate" compare base.json cand.json --allow-errors
expect 2 "aiperf_profile_export.json: not a repetition of .*vllm_bench_serve.json's workload: they differ in" -- \
  "$infergate" import "$fixtures/vllm_bench_serve.json" "$fixtures/aiperf_profile_export.json" \
  --as-repetitions mixed.json
[ -e mixed.json ] && { echo "FAIL: a refused merge wrote its file"; status=1; }

# diagnose reads an import with every statistic; one whose tool left out p95 (vLLM without
# --save-detailed writes only the percentiles asked for, here 50/90/99) is refused, not read as 0.
expect 0 "vllm-bench-serve/.*nothing to fix|vllm-bench-serve/" -- "$infergate" diagnose out/vllm_bench_serve.infergate.json
$py -c 'import json,sys; d=json.load(open(sys.argv[1])); [d.pop(k) for k in ("ttfts","itls","input_lens","output_lens","errors","generated_texts","latencies","start_times","queue_times")]; json.dump(d,open("summary_only.json","w"))' \
  "$fixtures/vllm_bench_serve.json"
expect 0 "summary_only.infergate.json" -- "$infergate" import summary_only.json
expect 2 'summary\.ttft_ms\.p95: missing \(the tool that wrote the file did not give it\)' -- \
  "$infergate" diagnose summary_only.infergate.json

# Bad files: refused naming what is wrong; nothing written, nothing stored.
head -c 700 "$fixtures/vllm_bench_serve.json" >truncated.json
$py -c 'import json,sys; d=json.load(open(sys.argv[1])); d["ttfts"][1]=-0.1; json.dump(d,open("negative.json","w"))' \
  "$fixtures/vllm_bench_serve.json"
$py -c 'import json,sys; d=json.load(open(sys.argv[1])); d["schema_version"]="2.0"; json.dump(d,open("aiperf_v2.json","w"))' \
  "$fixtures/aiperf_profile_export.json"
echo '{"hello": "world"}' >unknown.json
mkdir bad
expect 2 "truncated.json: not JSON at line 1, .*truncated\?" -- "$infergate" import truncated.json --out-dir bad --db h.sqlite
expect 2 'negative.json: \$\.ttfts\[1\]: .* is negative' -- "$infergate" import "$fixtures/guidellm_benchmarks.json" negative.json --out-dir bad --db h.sqlite
expect 2 "aiperf_v2.json: .*schema_version.*2\.0" -- "$infergate" import aiperf_v2.json --out-dir bad --db h.sqlite
expect 2 "unknown.json: .*(not|no) .*(tool|recogni)" -- "$infergate" import unknown.json --out-dir bad --db h.sqlite
[ -z "$(ls bad)" ] || { echo "FAIL: a refused import wrote $(ls bad)"; status=1; }
[ "$(runs)" = 4 ] || { echo "FAIL: a refused import stored runs: $(runs)"; status=1; }
exit "$status"
