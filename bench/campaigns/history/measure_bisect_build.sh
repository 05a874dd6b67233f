#!/usr/bin/env bash
# What the compiler cache buys `infergate bisect` (docs/bisect.md): a bisect between two
# commits with the default build command and an empty ccache, so the first end is a cold build
# and the second reuses every object whose source did not change. Prints each end's build time.
#   bench/campaigns/history/measure_bisect_build.sh [BUILD_DIR] [GOOD] [BAD]
set -euo pipefail
cd "$(dirname "$0")/../../.."
build=${1:-build/release} good=${2:-HEAD~1} bad=${3:-HEAD}
infergate="$build/cli/infergate"
[ -x "$infergate" ] || { echo "measure_bisect_build: $infergate is not built" >&2; exit 2; }
command -v ccache >/dev/null || { echo "measure_bisect_build: no ccache on PATH" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CCACHE_DIR=$work/ccache
lscpu | sed -n 's/^Model name: *//p' | head -1 | sed 's/^/cpu: /'
echo "cores: $(nproc)"
set +e
"$infergate" bisect --good "$good" --bad "$bad" --workload workloads/gate-decode.json \
  --metric summary.tpot_ms.p50 --repeat 4 --cache-dir "$work/bisect" --out-dir "$work/out" \
  > "$work/bisect.log" 2>&1
echo "bisect exit $? (3: the ends do not differ, as expected for neighbouring commits)"
set -e
/usr/bin/python3 - "$work/out/bisect.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
for c in report["commits"]:
    print(f'{c["commit"][:12]}  build {c["build"]["seconds"]:7.1f} s  '
          f'(reused: {c["build"]["reused"]})')
PY
ccache --show-stats | grep -iE "hits|misses" | head -4
