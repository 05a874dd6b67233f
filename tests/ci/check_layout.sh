#!/usr/bin/env bash
# ci/check-layout.py must hold the tree to the graph of docs/architecture.md: the real tree
# passes, and on a copy of it an engine file that includes the server, a gates or bench subfolder
# that includes one that depends on it, a graph with a cycle, a file outside every unit and a
# layer kernel outside the model's op units are each refused by name.
# Usage: check_layout.sh SOURCE_DIR WORK_DIR
set -uo pipefail
source_dir=$1 work=$2
source "$source_dir/tests/cli/expect.sh"
check=("/usr/bin/python3" "$source_dir/ci/check-layout.py")

expect 0 "every include follows the graph" -- "${check[@]}" "$source_dir"

rm -rf "$work" && mkdir -p "$work"
copy() {  # a fresh copy of the tree's sources and docs (no build, no .git)
  rm -rf "$work/tree" && mkdir -p "$work/tree"
  (cd "$source_dir" && tar -cf - --exclude=./build --exclude=./.git --exclude=node_modules .) |
    tar -xf - -C "$work/tree"
}
copy
sed -i '1i #include "server/http_server.h"' "$work/tree/engine/core/scheduler.cc"
expect 1 "engine/core/scheduler.cc:1: engine/core includes server/http_server.h \(server\)" \
  -- "${check[@]}" "$work/tree"

copy
sed -i 's|^engine/tokenizer -> \(.*\)$|engine/tokenizer -> \1 engine/core|' "$work/tree/docs/architecture.md"
expect 2 "has a cycle: engine/tokenizer -> engine/core -> .* -> engine/tokenizer" \
  -- "${check[@]}" "$work/tree"

# Inside gates/ too: the report including a run that draws with the report is a loop.
copy
sed -i '1i #include "gates/diagnose/diagnosis.h"' "$work/tree/gates/report/html_report.cc"
expect 1 "gates/report/html_report.cc:1: gates/report includes gates/diagnose/diagnosis.h \(gates/diagnose\)" \
  -- "${check[@]}" "$work/tree"

# And inside bench/: the metrics reaching back into the driver that feeds them (the loop the
# harness had while it was one library), and the cycle that edge would close in the graph.
copy
sed -i '1i #include "bench/driver/load_driver.h"' "$work/tree/bench/metrics/ramp_summary.cc"
expect 1 "bench/metrics/ramp_summary.cc:1: bench/metrics includes bench/driver/load_driver.h \(bench/driver\)" \
  -- "${check[@]}" "$work/tree"
copy
sed -i 's|^bench/metrics -> bench/load$|bench/metrics -> bench/load bench/driver|' "$work/tree/docs/architecture.md"
expect 2 "has a cycle: bench/metrics -> bench/driver -> .* -> bench/metrics" \
  -- "${check[@]}" "$work/tree"

# The model's one home: a forward pass growing in an executor, or the model calling a kernel
# instead of its backend's op, is refused.
copy
sed -i '1i #include "kernels/cpu/ops.h"' "$work/tree/engine/core/local_executor.cc"
expect 1 "engine/core/local_executor.cc:1: engine/core includes the layer kernel kernels/cpu/ops.h" \
  -- "${check[@]}" "$work/tree"
copy
sed -i '1i #include "kernels/cuda/rms_norm.h"' "$work/tree/engine/forward/transformer.cc"
expect 1 "engine/forward/transformer.cc:1: the model includes the layer kernel kernels/cuda/rms_norm.h" \
  -- "${check[@]}" "$work/tree"

copy
mkdir -p "$work/tree/stray" && echo "int x;" >"$work/tree/stray/loose.cc"
expect 1 "stray/loose.cc: in no unit of the graph" -- "${check[@]}" "$work/tree"
rm -rf "$work"
exit $status
