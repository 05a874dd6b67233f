#!/usr/bin/env bash
# ci/check-deps.py record keeps what the recorded command and its descendants opened, and leaves
# out what another program opened meanwhile (a package manager or a shell tool beside CI).
# Usage: check_deps_record.sh SOURCE_DIR WORK_DIR
set -euo pipefail
source_dir=$1 work=$2
[ "$(id -u)" -eq 0 ] && command -v fatrace >/dev/null ||
  { echo "SKIP: recording needs root and fatrace"; exit 77; }
rm -rf "$work" && mkdir -p "$work"
ours=/usr/share/doc/bash/copyright theirs=/usr/share/doc/gzip/copyright
# The other program opens its file throughout the recording, from outside the command's tree.
( for _ in $(seq 60); do cat "$theirs" >/dev/null; sleep 0.05; done ) &
other=$!
/usr/bin/python3 "$source_dir/ci/check-deps.py" record --trace "$work/trace.txt" -- \
  bash -c "sleep 1; cat $ours >/dev/null; (sh -c 'sleep 0.2; ls /usr/share/doc/sed >/dev/null') &
           wait"
wait "$other"
cat "$work/trace.txt" | grep doc/ || true
grep -qF "$ours" "$work/trace.txt" || { echo "FAIL: the command's own file is missing"; exit 1; }
grep -qF "/usr/share/doc/sed" "$work/trace.txt" ||
  { echo "FAIL: a grandchild's file is missing"; exit 1; }
if grep -qF "$theirs" "$work/trace.txt"; then
  echo "FAIL: another program's file was recorded"
  exit 1
fi
echo "PASS: only the command's process tree is recorded"
