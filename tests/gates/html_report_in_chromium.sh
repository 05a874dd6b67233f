#!/usr/bin/env bash
# Opens the HTML reports of the test fixtures in headless Chromium: the page must load with no
# console errors or failed resource loads, its SVG charts must be in the parsed DOM, and the
# screenshot must show something. Exits 77 (CTest skip) when Chromium is not installed.
#   html_report_in_chromium.sh INFERGATE OUT_DIR
set -euo pipefail

infergate=${1:?usage: html_report_in_chromium.sh INFERGATE OUT_DIR}
out=${2:?usage: html_report_in_chromium.sh INFERGATE OUT_DIR}
data="$(cd "$(dirname "$0")" && pwd)/data"

browser=""
for b in chromium chromium-browser google-chrome; do
  if command -v "$b" >/dev/null 2>&1; then browser=$b; break; fi
done
if [ -z "$browser" ]; then
  echo "SKIP: Chromium is not installed (Debian: apt-get install chromium; ci/install-deps.sh)"
  exit 77
fi

mkdir -p "$out"
out="$(cd "$out" && pwd)"
# The fixture candidate ran with an injected decode delay, which changes its workload hash.
"$infergate" report "$data/quickstart-baseline.json" "$data/quickstart-candidate.json" \
  --rules "$data/report-rules.json" --allow-env-diff --out-dir "$out/comparison"
"$infergate" report "$data/rate-sweep.json" --out-dir "$out/run"

status=0
fail() { echo "FAIL: $*"; status=1; }

# Chromium wants a writable home and profile; keep both inside OUT_DIR.
export HOME="$out/home"
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run
       --user-data-dir="$out/profile" --enable-logging=stderr --v=0)

for page in comparison run; do
  html="$out/$page/report.html"
  png="$out/$page.png"
  log="$out/$page.console.log"
  rm -f "$png"
  echo "$page: $(wc -c <"$html") bytes"
  timeout 120 "$browser" "${flags[@]}" --window-size=1400,3000 --screenshot="$png" \
    "file://$html" >"$log" 2>&1 || fail "$page: chromium exited with $? (see $log)"
  # Console messages are logged as "...:CONSOLE(line)] "message", source: ..." (or
  # "CONSOLE:line]" in newer builds); script errors as "Uncaught ...".
  if grep -E "CONSOLE|Uncaught|Failed to load resource|net::ERR_" "$log"; then
    fail "$page: console errors or failed loads (above; full log $log)"
  fi
  if [ ! -s "$png" ]; then
    fail "$page: no screenshot at $png"
  elif [ "$(wc -c <"$png")" -lt 50000 ]; then
    fail "$page: screenshot $png is only $(wc -c <"$png") bytes: nothing rendered?"
  else
    echo "$page: screenshot $png ($(wc -c <"$png") bytes)"
  fi
  # The charts must survive parsing: count the <svg> elements in the DOM Chromium built.
  dom_svgs=$(timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$html" 2>/dev/null |
    grep -o "<svg " | wc -l)
  file_svgs=$(grep -o "<svg " "$html" | wc -l)
  if [ "$dom_svgs" -lt 1 ] || [ "$dom_svgs" -ne "$file_svgs" ]; then
    fail "$page: $file_svgs <svg> in the file but $dom_svgs in the parsed DOM"
  else
    echo "$page: $dom_svgs SVG charts in the DOM"
  fi
done
exit $status
