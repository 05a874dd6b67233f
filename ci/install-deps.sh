#!/usr/bin/env bash
# Installs the Debian 12 packages infergate builds and tests with. Idempotent: apt runs only
# when something is missing. Needs root (or sudo).
set -euo pipefail

packages=(
  cmake g++ make git clang-format
  catch2 nlohmann-json3-dev libboost-program-options-dev
  libbenchmark-dev libopenblas-dev libdnnl-dev
  ocl-icd-opencl-dev  # oneDNN's CMake config requires OpenCL; libdnnl-dev only recommends it
  libopenmpi-dev openmpi-bin
  chromium python3-prometheus-client
  clang libclang-rt-14-dev  # ci/fuzz.sh: clang's libFuzzer and sanitizer runtimes (rt is only
                            # recommended by clang, and apt runs with --no-install-recommends)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "infergate: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
