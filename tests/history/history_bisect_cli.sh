#!/usr/bin/env bash
# `infergate history bisect` end to end, with real git, real runs and the real bisect: a
# throwaway repository of 18 commits whose "build" wraps the real infergate with the commit's
# decode delay (as tests/gates/bisect_end_to_end.sh does); commit 8 adds 20 ms. The history
# holds runs of commits 0-6 and 10-17 only (a nightly that skipped some), so detect finds a
# change point between commits 6 and 10; history bisect hands that range to bisect, which must
# name commit 8, and the change point must then carry it. The bisect is paired (each commit run
# alternately with an end's build): unpaired, a machine that got busy after the good end was
# measured made good commits look slow, and bisect named the wrong one.
#   history_bisect_cli.sh INFERGATE WORK_DIR
# Exit 77 (skipped) without git.
set -euo pipefail
command -v git >/dev/null || { echo "git not found: skipped"; exit 77; }
INFERGATE=$(realpath "${1:?usage: history_bisect_cli.sh INFERGATE WORK_DIR}")
WORK=${2:?usage: history_bisect_cli.sh INFERGATE WORK_DIR}
HERE=$(cd "$(dirname "$0")" && pwd)
WORKLOAD=$HERE/../gates/bisect_fixture/workload.json
rm -rf "$WORK" && mkdir -p "$WORK/runs"
WORK=$(realpath "$WORK")
REPO=$WORK/repo
fail() { echo "FAIL: $*" >&2; exit 1; }

export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME=history-test GIT_AUTHOR_EMAIL=history@test
export GIT_COMMITTER_NAME=history-test GIT_COMMITTER_EMAIL=history@test
export BISECT_TEST_REAL_INFERGATE=$INFERGATE

git init -q -b main "$REPO"
cd "$REPO"
cat >build.sh <<'EOF2'
#!/bin/sh
# The project's build: an "infergate" that is the real one plus this commit's decode delay.
set -e
delay=$(cat "$SOURCE_DIR/delay_us")
mkdir -p "$BUILD_DIR/cli"
cat >"$BUILD_DIR/cli/infergate" <<WRAPPER
#!/bin/sh
if [ "\$1" = run ]; then
  exec "$BISECT_TEST_REAL_INFERGATE" "\$@" --set target.engine.debug.inject_decode_delay_us=$delay
fi
exec "$BISECT_TEST_REAL_INFERGATE" "\$@"
WRAPPER
chmod +x "$BUILD_DIR/cli/infergate"
EOF2
declare -a COMMITS DELAYS
for i in $(seq 0 17); do
  delay=0
  [ "$i" -ge 8 ] && delay=20000
  echo "$delay" >delay_us
  echo "change $i" >>notes.txt
  git add -A && git commit -qm "Commit $i"
  COMMITS[$i]=$(git rev-parse HEAD)
  DELAYS[$i]=$delay
done

# The history: what each stored commit's build measured, labelled with that commit.
# Eight commits after the gap: with only four, the permutation test's smallest p-value (the
# step's 2 arrangements among C(11, 4) = 330) sits at alpha 0.005, and detect found it or not
# by the draw.
for i in 0 1 2 3 4 5 6 10 11 12 13 14 15 16 17; do
  out=$WORK/runs/r$i.json
  "$INFERGATE" run "$WORKLOAD" --repeat 3 --quiet --out "$out" \
    --set target.engine.debug.inject_decode_delay_us="${DELAYS[$i]}" >/dev/null
  /usr/bin/python3 - "$out" "${COMMITS[$i]}" "$i" <<'PY'
import json, sys
path, commit, i = sys.argv[1], sys.argv[2], int(sys.argv[3])
doc = json.load(open(path))
doc["manifest"]["git"]["commit"] = commit
doc["manifest"]["git"]["dirty"] = False
doc["created_at"] = f"2026-12-01T00:{i:02d}:00Z"
json.dump(doc, open(path, "w"))
PY
done
"$INFERGATE" history add --db "$WORK/h.sqlite" "$WORK"/runs/*.json >/dev/null

"$INFERGATE" history detect --db "$WORK/h.sqlite" --metric tpot_ms.p50 > "$WORK/detect.txt"
cat "$WORK/detect.txt"
grep -q "commits ${COMMITS[6]:0:12}..${COMMITS[10]:0:12}" "$WORK/detect.txt" ||
  fail "detect did not find the change between commits 6 and 10"
id=$(sed -n 's/^change point \([0-9]*\): tpot_ms.p50.*/\1/p' "$WORK/detect.txt" | head -1)

set +e
"$INFERGATE" history bisect --db "$WORK/h.sqlite" "$id" -- --repo "$REPO" \
  --build-cmd 'sh build.sh' --cache-dir "$WORK/cache" --repeat 4 --threshold 50 --paired \
  --max-pairs 12 \
  --out-dir "$WORK/bisect" > "$WORK/bisect.txt" 2>&1
rc=$?
set -e
cat "$WORK/bisect.txt"
[ $rc = 0 ] || fail "history bisect exited $rc"
grep -q "first bad commit: ${COMMITS[8]} Commit 8" "$WORK/bisect.txt" ||
  fail "bisect did not name commit 8"
grep -q "recorded ${COMMITS[8]} on change point $id" "$WORK/bisect.txt" ||
  fail "history bisect did not say it recorded the commit"
"$INFERGATE" history detect --db "$WORK/h.sqlite" --metric tpot_ms.p50 > "$WORK/detect2.txt"
grep -q "bisect found: ${COMMITS[8]}" "$WORK/detect2.txt" ||
  fail "the change point does not carry the found commit: $(cat "$WORK/detect2.txt")"
echo "ok: history bisect found commit 8 and recorded it on change point $id"

# A change point that does not exist, and an id that is not one, exit 2 naming it.
set +e
out=$("$INFERGATE" history bisect --db "$WORK/h.sqlite" 99 2>&1); rc=$?
[ $rc = 2 ] && grep -q "no change point 99" <<<"$out" || fail "missing change point: $rc: $out"
out=$("$INFERGATE" history bisect --db "$WORK/h.sqlite" x1 2>&1); rc=$?
[ $rc = 2 ] && grep -q "'x1' is not a change point id" <<<"$out" || fail "bad id: $rc: $out"
echo "ok: bad change points refused with exit 2"
