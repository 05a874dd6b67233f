#!/usr/bin/env bash
# A half-present optional package (its config found, its own REQUIRED dependency missing) must
# not stop configure: cmake/optional_package.cmake leaves it out and says so in one line.
# Usage: optional_package.sh SOURCE_DIR WORK_DIR
set -euo pipefail
source_dir=$1 work=$2
rm -rf "$work"
out=$(cmake -S "$source_dir/tests/ci/half_present_config" -B "$work" \
        -DINFERGATE_SOURCE_DIR="$source_dir" 2>&1) || { echo "$out"; echo "FAIL: configure stopped"; exit 1; }
echo "$out" | grep -F "optional halfpresent is present but its CMake config fails (By not providing" ||
  { echo "$out"; echo "FAIL: no one-line reason"; exit 1; }
echo "$out" | grep -F "result: halfpresent_FOUND=FALSE InfergateAbsentPackage_FOUND=FALSE" ||
  { echo "$out"; echo "FAIL: a package was reported found"; exit 1; }
echo "PASS: configure went on without the half-present package"
