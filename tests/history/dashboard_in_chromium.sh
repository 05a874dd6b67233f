#!/usr/bin/env bash
# The trends dashboard in headless Chromium: a history of 30 commits whose TPOT is 20% worse
# from commit 20 on is stored and `history dashboard` writes the site; the landing page, the
# workload page and a run's report must load without console errors or failed loads, every
# chart must be in the parsed DOM, the change point must be listed and marked on its charts,
# every dot's link must lead to a report that exists, and the screenshots must show something.
# Exits 77 (CTest skip) when Chromium is not installed.
#   dashboard_in_chromium.sh INFERGATE OUT_DIR
set -uo pipefail
infergate=${1:?usage: dashboard_in_chromium.sh INFERGATE OUT_DIR}
out=${2:?usage: dashboard_in_chromium.sh INFERGATE OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
fixture="$here/../gates/data/quickstart-baseline.json"
browser=""
for b in chromium chromium-browser google-chrome; do
  if command -v "$b" >/dev/null 2>&1; then browser=$b; break; fi
done
if [ -z "$browser" ]; then
  echo "SKIP: Chromium is not installed (Debian: apt-get install chromium; ci/install-deps.sh)"
  exit 77
fi
rm -rf "$out" && mkdir -p "$out/runs"
out="$(cd "$out" && pwd)"
status=0
fail() { echo "FAIL: $*"; status=1; }

/usr/bin/python3 "$here/make_history.py" "$fixture" "$out/runs" 30 --noise 0.02 --step-at 20 \
  --step 1.2 --tag cd --seed 4
"$infergate" history add --db "$out/h.sqlite" "$out"/runs/*.json >/dev/null || fail "history add"
"$infergate" history dashboard --db "$out/h.sqlite" --out "$out/site" || fail "history dashboard"
site=$out/site
workload_page=$(ls "$site"/workload-*.html | head -1)
run_page=$(ls "$site"/runs/*.html | head -1)
[ "$(ls "$site"/runs/*.html | wc -l)" = 30 ] || fail "not one report per run in $site/runs"

export HOME="$out/home"
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run
       --user-data-dir="$out/profile" --enable-logging=stderr --v=0)
for html in "$site/index.html" "$workload_page" "$run_page"; do
  name=$(basename "$html" .html)
  png="$out/$name.png" log="$out/$name.console.log"
  timeout 120 "$browser" "${flags[@]}" --window-size=1400,3000 --screenshot="$png" \
    "file://$html" >"$log" 2>&1 || fail "$name: chromium exited with $?"
  grep -E "CONSOLE|Uncaught|Failed to load resource|net::ERR_" "$log" &&
    fail "$name: console errors or failed loads (above)"
  if [ ! -s "$png" ] || [ "$(wc -c <"$png")" -lt 30000 ]; then
    fail "$name: the screenshot $png is missing or nearly empty"
  else
    echo "ok: $name rendered ($(wc -c <"$png") bytes of screenshot)"
  fi
  timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$html" 2>/dev/null >"$out/$name.dom.html"
  dom_svgs=$(grep -o "<svg " "$out/$name.dom.html" | wc -l)
  file_svgs=$(grep -o "<svg " "$html" | wc -l)
  [ "$dom_svgs" = "$file_svgs" ] || fail "$name: $file_svgs <svg> in the file, $dom_svgs in the DOM"
done

index_dom=$out/index.dom.html
grep -q 'class="change-point"' "$index_dom" && grep -q "worse" "$index_dom" &&
  echo "ok: the landing page lists the change point" || fail "no change point on the landing page"
page_dom=$out/$(basename "$workload_page" .html).dom.html
charts=$(grep -o 'data-chart="trend"' "$page_dom" | wc -l)
[ "$charts" = 7 ] && echo "ok: 7 trend charts (the default metrics)" || fail "$charts trend charts"
grep -q 'class="reference"' "$page_dom" && echo "ok: the change point is marked on its charts" ||
  fail "no change point marked"
missing=0
for link in $(grep -o 'href="runs/[0-9]*\.html"' "$page_dom" | sort -u | sed 's/href="\(.*\)"/\1/'); do
  [ -f "$site/$link" ] || missing=$((missing + 1))
done
links=$(grep -o 'href="runs/[0-9]*\.html"' "$page_dom" | sort -u | wc -l)
[ "$links" = 30 ] && [ $missing = 0 ] && echo "ok: the dots link to all 30 runs' reports" ||
  fail "$links distinct run links, $missing missing"
exit $status
