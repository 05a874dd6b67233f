#!/bin/bash
# Runs llama_cpp_blocks (our dequantization of llama.cpp's block formats against llama.cpp's
# own) on the libggml-base.so of the node-llama-cpp that ci/interop-llama-cpp.sh installed into
# the cache. Never installs anything: exit 77 (skip) when it is not there.
# usage: llama_cpp_blocks.sh PROGRAM
set -euo pipefail
cache=${INFERGATE_CACHE:-${HOME:-/tmp}/.cache/infergate}/node-llama-cpp
lib=$(ls "$cache"/node_modules/@node-llama-cpp/*/bins/*/libggml-base.so 2>/dev/null | head -n 1 || true)
if [ -z "$lib" ]; then
  echo "llama_cpp_blocks: skipped: no node-llama-cpp in $cache (ci/interop-llama-cpp.sh installs it)"
  exit 77
fi
echo "llama_cpp_blocks: against $lib"
exec "$1" "$lib"
