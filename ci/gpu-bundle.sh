#!/usr/bin/env bash
# Run HERE (a machine with apt) before a device check: fetches the Debian packages infergate's
# GPU build needs into .gpu-bundle/ (git-ignored, about 11 MB), for a GPU machine that has the
# CUDA toolkit, CMake and a compiler but no Boost, Catch2, nlohmann-json or Google Benchmark,
# and no network. ci/gpu-check.sh unpacks them there (dpkg-deb -x into a prefix of their own,
# never over /). Carry the folder: device `run` with carry [".gpu-bundle"].
#   bash ci/gpu-bundle.sh
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(
  nlohmann-json3-dev catch2 libbenchmark-dev libbenchmark1debian
  libboost1.74-dev libboost-program-options1.74-dev libboost-program-options1.74.0
  libboost-program-options-dev
)
rm -rf .gpu-bundle
mkdir -p .gpu-bundle
# apt's sandbox user cannot write into root's checkout; fetch into /tmp, then move.
tmp=$(mktemp -d)
chmod 755 "$tmp"
(cd "$tmp" && apt-get download "${packages[@]}" >/dev/null)
mv "$tmp"/*.deb .gpu-bundle/
rmdir "$tmp"
du -sh .gpu-bundle
echo "gpu-bundle: ${#packages[@]} packages in .gpu-bundle/; carry it to the GPU machine"
