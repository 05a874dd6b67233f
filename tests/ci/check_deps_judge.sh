#!/usr/bin/env bash
# ci/check-deps.py judges the install list, not the machine: a recorded use of OpenCL's header
# fails against a list without ocl-icd-opencl-dev (naming the package, the file and the program),
# and passes against ci/packages.txt; a file from outside Debian is named too.
# Usage: check_deps_judge.sh SOURCE_DIR WORK_DIR
set -euo pipefail
source_dir=$1 work=$2
check="/usr/bin/python3 $source_dir/ci/check-deps.py"
[ -f /usr/include/CL/cl.h ] || { echo "SKIP: OpenCL headers not installed"; exit 77; }
rm -rf "$work" && mkdir -p "$work"
printf '/usr/include/CL/cl.h\tcc1plus\n/usr/include/nlohmann/json.hpp\tcc1plus\n' >"$work/trace.txt"
grep -v '^ocl-icd-opencl-dev' "$source_dir/ci/packages.txt" >"$work/packages.txt"

status=0
out=$($check judge --trace "$work/trace.txt" --packages "$work/packages.txt" 2>&1) || status=$?
echo "$out"
[ "$status" -eq 1 ] || { echo "FAIL: exit $status, wanted 1"; exit 1; }
echo "$out" | grep -F "lacks opencl-c-headers: cc1plus opened /usr/include/CL/cl.h" >/dev/null ||
  { echo "FAIL: the missing package is not named"; exit 1; }

$check judge --trace "$work/trace.txt" || { echo "FAIL: ci/packages.txt judged incomplete"; exit 1; }

printf '/opt/infergate-check-deps-test/tool\tbash\n' >"$work/outside.txt"
status=0
out=$($check judge --trace "$work/outside.txt" 2>&1) || status=$?
echo "$out"
[ "$status" -eq 1 ] && echo "$out" | grep -F "which no Debian package installs" >/dev/null ||
  { echo "FAIL: a file from outside Debian passed"; exit 1; }
echo "PASS: the judge names what the list lacks"
