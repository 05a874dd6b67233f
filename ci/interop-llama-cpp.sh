#!/usr/bin/env bash
# Checks that GGUF files `infergate export` writes load in llama.cpp and compute the same logits:
# exports small models (dense f32/f16/bf16/q8_0, grouped-query attention, MoE), evaluates a few
# tokens with llama.cpp (the prebuilt CPU library in the node-llama-cpp npm package) and compares
# with `infergate logits --reference` (tests/interop/llama_cpp_logits.mjs).
#
#   ci/interop-llama-cpp.sh [PATH/TO/infergate]     (default: build/release/cli/infergate)
#
# node-llama-cpp (pinned) is installed once into $INFERGATE_CACHE/node-llama-cpp (default
# ~/.cache/infergate), from the npm registry only: no install scripts, no llama.cpp download or
# build. Node.js (>= 20) and npm come from apt when missing. Exit status: 0 all pass, 1 a check
# failed, 2 usage error, 77 skipped (Node.js or the package cannot be installed, e.g. no network).
set -euo pipefail

readonly NODE_LLAMA_CPP_VERSION=3.22.1
readonly TOKENS=1,42,300,7,259,511,100,31999

root=$(cd "$(dirname "$0")/.." && pwd)
infergate=${1:-$root/build/release/cli/infergate}
[ -x "$infergate" ] || { echo "interop: no infergate binary at '$infergate'" >&2; exit 2; }
infergate=$(cd "$(dirname "$infergate")" && pwd)/$(basename "$infergate")
cache=${INFERGATE_CACHE:-${HOME:-/tmp}/.cache/infergate}/node-llama-cpp

skip() {
  echo "SKIP: $*"
  exit 77
}

# --- Node.js and npm -------------------------------------------------------------------------
install_with_apt() {  # packages...; never prompts (sudo -n)
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || return 1
    sudo="sudo -n"
  fi
  command -v apt-get >/dev/null || return 1
  echo "interop: installing $* with apt"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1 ||
    { $sudo apt-get update -qq >/dev/null 2>&1 &&
      $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1; }
}
missing=()
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -gt 0 ] && ! install_with_apt "${missing[@]}"; then
  skip "${missing[*]} missing and could not be installed with apt"
fi
node_major=$(node -p 'process.versions.node.split(".")[0]')
# node-llama-cpp 3.22.1 does not run on Node 18 (Debian 12's own nodejs): it needs >= 20, for
# example NodeSource's nodejs package.
[ "$node_major" -ge 20 ] || skip "Node.js $(node --version) is too old (node-llama-cpp needs >= 20)"

# --- node-llama-cpp, pinned, prebuilt CPU binaries for this machine only ---------------------
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform=linux-x64 ;;
  Linux-aarch64 | Linux-arm64) platform=linux-arm64 ;;
  Linux-armv7l) platform=linux-armv7l ;;
  *) skip "no prebuilt llama.cpp in node-llama-cpp for $(uname -s)-$(uname -m)" ;;
esac
# Never fetch or compile llama.cpp: only the binaries inside the npm packages are used.
export NODE_LLAMA_CPP_SKIP_DOWNLOAD=true NODE_LLAMA_CPP_POSTINSTALL=skip
stamp="$cache/.installed-$NODE_LLAMA_CPP_VERSION-$platform"
mkdir -p "$(dirname "$cache")"
exec 9>"$cache.lock"  # one installer at a time (parallel ctest runs share the cache)
flock 9
if [ ! -f "$stamp" ]; then
  echo "interop: installing node-llama-cpp@$NODE_LLAMA_CPP_VERSION (@node-llama-cpp/$platform)" \
       "into $cache"
  rm -rf "$cache"
  mkdir -p "$cache"
  cat >"$cache/package.json" <<EOF
{
  "name": "infergate-interop-llama-cpp",
  "private": true,
  "description": "llama.cpp for infergate's ci/interop-llama-cpp.sh, which created this folder",
  "dependencies": {
    "node-llama-cpp": "$NODE_LLAMA_CPP_VERSION",
    "@node-llama-cpp/$platform": "$NODE_LLAMA_CPP_VERSION"
  }
}
EOF
  # --omit=optional: the prebuilt binaries of other platforms and GPU backends (CUDA, Vulkan:
  # ~600 MB) are optional dependencies; the one this machine needs is a direct one above.
  # --ignore-scripts: node-llama-cpp's postinstall may download and build llama.cpp. A private
  # npm cache, deleted afterwards, keeps ~/.npm clean; short timeouts make "offline" a skip.
  if ! (cd "$cache" && timeout 600 npm install --omit=optional --ignore-scripts --no-audit \
          --no-fund --no-update-notifier --loglevel=error --cache "$cache/.npm-cache" \
          --fetch-timeout=60000 --fetch-retries=1 >npm-install.log 2>&1); then
    tail -n 20 "$cache/npm-install.log" >&2 || true
    rm -rf "$cache/.npm-cache"
    skip "npm could not install node-llama-cpp@$NODE_LLAMA_CPP_VERSION (no network?);" \
         "log: $cache/npm-install.log"
  fi
  rm -rf "$cache/.npm-cache"
  touch "$stamp"
fi
exec 9>&-
export INFERGATE_NODE_MODULES=$cache

# --- export, compute reference logits, compare -----------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/infergate-interop.XXXXXX")
trap 'rm -rf "$work"' EXIT
compare="$root/tests/interop/llama_cpp_logits.mjs"
failures=()

# check NAME TOLERANCE EXPORT_ARGS... : exports with `infergate export EXPORT_ARGS`, computes
# the reference logits of the same model and dtype, and compares llama.cpp's with them.
check() {
  local name=$1 tolerance=$2
  shift 2
  local gguf="$work/$name.gguf" expected="$work/$name.json"
  if ! "$infergate" export "$@" --format gguf --out "$gguf" >/dev/null ||
     ! "$infergate" logits "$@" --tokens "$TOKENS" --reference >"$expected"; then
    echo "FAIL $name: infergate could not export the model or compute its logits"
    failures+=("$name")
    return
  fi
  node "$compare" "$gguf" "$expected" "$tolerance" "$name" || failures+=("$name")
  rm -f "$gguf" "$expected"
}

# Tolerances (max |logit| is about 8 for tiny, 16 for small): infergate's reference accumulates
# in double and llama.cpp here uses an f32 KV cache, so f32 agrees to ~1e-5. llama.cpp rounds
# activations to bf16 for bf16 matmuls (observed 0.06) and quantizes them to Q8_0 for Q8_0 ones
# (observed 0.19); f16 matmuls may round them to f16 on some CPUs. The bounds are a few times
# that, far below what a layout bug gives (Q/K rotary rows left unpermuted: differences > 1).
check dense-f32 0.002 --model tiny --dtype f32
check dense-f16 0.05 --model tiny --dtype f16
check dense-bf16 0.2 --model tiny --dtype bf16
check dense-q8_0 0.5 --model tiny --dtype q8_0
check gqa-small-f16 0.05 --model small --dtype f16  # 12 query heads, 4 KV heads
check moe-f32 0.002 --model moe-tiny --dtype f32  # 8 experts, top-2; 6 query, 2 KV heads

# Negative control: the comparison must reject the logits of other weights (another seed).
"$infergate" export --model tiny --dtype f32 --format gguf --out "$work/control.gguf" >/dev/null
"$infergate" logits --model tiny --model-seed 1 --dtype f32 --tokens "$TOKENS" --reference \
  >"$work/control.json"
status=0
control=$(node "$compare" "$work/control.gguf" "$work/control.json" 0.002 control) || status=$?
if [ "$status" -eq 1 ]; then  # 1: loaded, evaluated and found different (2 would be an error)
  echo "PASS control: logits of a differently seeded model are rejected (${control%%$'\n'*})"
else
  echo "FAIL control: expected a mismatch (exit status 1), got exit status $status: $control"
  failures+=(control)
fi

if [ ${#failures[@]} -gt 0 ]; then
  echo "interop: llama.cpp disagrees with infergate on: ${failures[*]}"
  exit 1
fi
echo "interop: all GGUF exports load in llama.cpp and match infergate's logits"
