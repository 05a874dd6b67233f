#!/usr/bin/env bash
# Files that are not what they should be, through the real binary: FIFOs, devices and directories
# given as inputs are refused at once by what they are (never a hang, never an endless read);
# deeply nested JSON gives a one-line error; unusable outputs are refused before any work; and
# a killed writer's temporary file is cleaned up by the next write of that output.
#   bad_input_files.sh INFERGATE WORK_DIR SOURCE_DIR
set -uo pipefail
infergate=${1:?usage: bad_input_files.sh INFERGATE WORK_DIR SOURCE_DIR}
work=${2:?usage: bad_input_files.sh INFERGATE WORK_DIR SOURCE_DIR}
src=${3:?usage: bad_input_files.sh INFERGATE WORK_DIR SOURCE_DIR}
rm -rf "$work" && mkdir -p "$work" && cd "$work"
base="$src/tests/gates/data/quickstart-baseline.json"
workload="$src/workloads/quickstart.json"
source "$src/tests/cli/expect.sh"

# Inputs that are not regular files.
mkfifo fifo.json fifo.gguf
mkdir dir.json
expect 2 "/dev/zero: is a character device, expected a regular file" -- \
  "$infergate" compare "$base" /dev/zero
expect 2 "fifo.json: is a named pipe \(FIFO\), expected a regular file" -- \
  "$infergate" compare "$base" fifo.json
expect 2 "dir.json: is a directory, expected a regular file" -- "$infergate" compare dir.json "$base"
expect 2 "fifo.json: is a named pipe \(FIFO\)" -- "$infergate" validate fifo.json
expect 2 "dir.json: is a directory" -- "$infergate" run dir.json
expect 2 "fifo.gguf: is a named pipe \(FIFO\), expected a regular file" -- \
  "$infergate" generate --model fifo.gguf
expect 2 "fifo.json: is a named pipe \(FIFO\)" -- \
  "$infergate" report "$base" fifo.json --out-dir reports

# 100,000 nested arrays: a one-line error naming the file, no crash.
deep=$(printf '%*s' 100000 '' | tr ' ' '[')$(printf '%*s' 100000 '' | tr ' ' ']')
printf '{"schema": "infergate.results/v1", "manifest": {"host": %s}}' "$deep" >deep.json
expect 2 "^infergate compare: error: deep.json: not JSON at line 1, column 183 \(byte offset 182\): nests deeper than the limit of 128 levels$" -- \
  "$infergate" compare "$base" deep.json
limit=120 expect 0 "wrote ckpt" -- "$infergate" export --format safetensors --out ckpt
printf '{"architectures": ["LlamaForCausalLM"], "vocab_size": %s}' "$deep" >ckpt/config.json
expect 2 "^infergate generate: error: ckpt/config.json: not JSON at line 1, column 182 \(byte offset 181\): nests deeper than the limit of 128 levels$" -- \
  "$infergate" generate --model ckpt

# Unusable outputs are refused before the run (no "results:" line: nothing was measured).
mkdir out-dir
for out in out-dir /proc/infergate-results.json /dev/null; do
  expect 2 "^infergate run: error: $out: cannot (write an output file here|create a temporary file beside it)" -- \
    "$infergate" run "$workload" --out "$out"
done
expect 2 "out-dir: cannot write an output file here: it is a directory" -- \
  "$infergate" run "$workload" --out ok.json --trace out-dir
expect 2 "out-dir: cannot write an output file here: it is a directory" -- \
  "$infergate" export --format gguf --out out-dir
expect 2 "/proc/r/verdicts.json: cannot create its directory /proc/r" -- \
  "$infergate" compare "$base" "$base" --report-dir /proc/r
expect 2 "out-dir: cannot write an output file here: it is a directory" -- \
  "$infergate" calibrate "$workload" --noise-out out-dir

# Options that cannot be honoured are refused at once naming the option (exit 2), never run
# as something else: a million concurrent prompts, formats a plan cannot weigh, a calibration
# text that is not text, an empty prompt.
expect 2 "--num-prompts 1000000: must be in \[1, 1024\]" -- \
  "$infergate" generate --model tiny --num-prompts 1000000
plan_on=("$infergate" plan --model llama-3-70b --hardware a100-80gb
  --workload "$src/workloads/plan-chat.json" --set load.num_requests=4 --out-dir plan-out)
plan=("${plan_on[@]}" --gpus 2)
expect 2 "--price-per-gpu-hour must be a finite number >= 0, got -1" -- \
  "${plan[@]}" --price-per-gpu-hour -1
expect 2 "--kv-dtype bogus: not a KV format" -- "${plan[@]}" --kv-dtype bogus
expect 2 "--weight-dtype fp8: .*fp8" -- "${plan[@]}" --weight-dtype fp8
printf '{not json' >garbage-calibration.json
expect 2 "--calibration: .*garbage-calibration.json" -- \
  "${plan[@]}" --calibration garbage-calibration.json
# Nothing fits: exit 1 (docs/simulator.md), every layout listed with its reason.
expect 1 "^  TP1 PP1 EP1 DP1 bf16 KV bf16 +[^ ]" -- \
  "${plan_on[@]}" --gpus 1 --weight-dtype bf16 --kv-dtype bf16
expect 1 "^infergate plan: no layout fits" -- \
  "${plan_on[@]}" --gpus 1 --weight-dtype bf16 --kv-dtype bf16
printf 'calibrate \xff\xfe on this\n' >binary.txt
expect 2 "--calibration binary.txt: not UTF-8 text \(invalid byte at offset 10\)" -- \
  "$infergate" quantize --model tiny --to w8a8 --calibration binary.txt --out w8a8.gguf
expect 2 "--prompt is empty" -- "$infergate" logits --model tiny --prompt ''

# A writer killed mid-write left r.json.tmp-<its pid>-XXXXXX: the next write removes it, and
# leaves a temporary that is not stale (no pid, fresh) and other outputs' temporaries alone.
sh -c 'exit 0' &
dead=$!
wait "$dead"
touch "r.json.tmp-$dead-Ab12Cd" r.json.tmp-Zx81Qa "other.json.tmp-$dead-Ab12Cd"
limit=120 expect 0 "results: r.json" -- "$infergate" run "$workload" --out r.json -q \
  --set load.num_requests=4 --set load.warmup_requests=0 --set load.rate=100
left=$(ls r.json* other.json* | tr '\n' ' ')
if [ "$left" != "other.json.tmp-$dead-Ab12Cd r.json r.json.tmp-Zx81Qa " ]; then
  echo "FAIL: after the write: $left"
  status=1
else
  echo "ok: the dead writer's temporary is gone, the others stay: $left"
fi
exit $status
