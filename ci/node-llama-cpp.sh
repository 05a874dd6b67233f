# Sourced by scripts that run llama.cpp through the npm package node-llama-cpp
# (ci/interop-llama-cpp.sh, bench/programs/llama_cpp/measure_vs_llama_cpp.sh): makes sure Node.js (>= 20)
# and npm are present (from apt when missing), installs node-llama-cpp (pinned) once into
# $INFERGATE_CACHE/node-llama-cpp (default ~/.cache/infergate) from the npm registry only (no
# install scripts, no llama.cpp download or build), and exports INFERGATE_NODE_MODULES, the
# folder holding its node_modules/. The caller defines `skip MESSAGE...` (it must exit), which
# runs when something cannot be installed.

readonly NODE_LLAMA_CPP_VERSION=3.22.1
cache=${INFERGATE_CACHE:-${HOME:-/tmp}/.cache/infergate}/node-llama-cpp

# shellcheck source=ci/npm-pinned.sh
source "$(dirname "${BASH_SOURCE[0]}")/npm-pinned.sh"

# --- node-llama-cpp, pinned, prebuilt CPU binaries for this machine only ---------------------
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform=linux-x64 ;;
  Linux-aarch64 | Linux-arm64) platform=linux-arm64 ;;
  Linux-armv7l) platform=linux-armv7l ;;
  *) skip "no prebuilt llama.cpp in node-llama-cpp for $(uname -s)-$(uname -m)" ;;
esac
# Never fetch or compile llama.cpp: only the binaries inside the npm packages are used.
export NODE_LLAMA_CPP_SKIP_DOWNLOAD=true NODE_LLAMA_CPP_POSTINSTALL=skip
npm_pinned_install "$cache" "$NODE_LLAMA_CPP_VERSION-$platform" \
  "llama.cpp for infergate, installed by ci/node-llama-cpp.sh" \
  "{\"node-llama-cpp\": \"$NODE_LLAMA_CPP_VERSION\", \"@node-llama-cpp/$platform\": \"$NODE_LLAMA_CPP_VERSION\"}"
export INFERGATE_NODE_MODULES=$cache
