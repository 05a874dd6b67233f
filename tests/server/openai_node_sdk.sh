#!/usr/bin/env bash
# The official OpenAI Node SDK (npm package `openai`, pinned, installed once into
# $INFERGATE_CACHE/openai-sdk from the npm registry, no install scripts) talks to a real
# `infergate serve` process on loopback, then to an `infergate router` in front of it; then
# SIGTERM must stop the server with exit 0.
# Exit 77 (skip) when Node.js or the package cannot be had, e.g. without the registry.
#   openai_node_sdk.sh INFERGATE
set -uo pipefail
readonly OPENAI_SDK_VERSION=4.95.0
infergate=${1:?usage: openai_node_sdk.sh INFERGATE}
here="$(cd "$(dirname "$0")" && pwd)"
cache=${INFERGATE_CACHE:-${HOME:-/tmp}/.cache/infergate}/openai-sdk

command -v node >/dev/null && command -v npm >/dev/null || { echo "SKIP: no Node.js/npm"; exit 77; }
if [ ! -f "$cache/node_modules/openai/package.json" ] ||
   ! grep -q "\"version\": \"$OPENAI_SDK_VERSION\"" "$cache/node_modules/openai/package.json"; then
  mkdir -p "$cache"
  # A private npm cache, deleted afterwards: npm's default (~/.npm) is outside what the run may
  # write (ci/check-deps.py judged its 171 files as used from outside Debian on a new machine).
  timeout 300 npm install --no-audit --no-fund --ignore-scripts --prefix "$cache" \
    --cache "$cache/.npm-cache" "openai@$OPENAI_SDK_VERSION" >/dev/null 2>&1 ||
    { rm -rf "$cache/.npm-cache"; echo "SKIP: cannot install openai@$OPENAI_SDK_VERSION from npm"; exit 77; }
  rm -rf "$cache/.npm-cache"
fi

log=$(mktemp)
router_log=$(mktemp)
"$infergate" serve --model tiny --port 0 --api-key secret-key --threads 2 >"$log" 2>&1 &
server=$!
router=
trap 'kill "$server" $router 2>/dev/null; rm -f "$log" "$router_log"' EXIT
# The URL a process prints once it listens (LOG, NAME).
listening_url() {
  for _ in $(seq 100); do
    grep -q "listening on" "$1" && break
    sleep 0.1
  done
  local url
  url=$(grep -o "http://[0-9.]*:[0-9]*" "$1" | head -1)
  [ -n "$url" ] || { echo "FAIL: $2 did not start:" >&2; cat "$1" >&2; return 1; }
  echo "$url"
}
url=$(listening_url "$log" "the server") || exit 1

INFERGATE_NODE_MODULES="$cache" node "$here/openai_node_sdk.mjs" "$url/v1" secret-key
status=$?

"$infergate" router --upstream "$url" --upstream-api-key secret-key --port 0 \
  --api-key router-key >"$router_log" 2>&1 &
router=$!
router_url=$(listening_url "$router_log" "the router") || exit 1
echo "through the router:"
INFERGATE_NODE_MODULES="$cache" node "$here/openai_node_sdk.mjs" "$router_url/v1" router-key ||
  status=1
kill -TERM "$router"
wait "$router"

kill -TERM "$server"
wait "$server"
code=$?
if [ "$code" != 0 ]; then echo "FAIL: infergate serve exited $code after SIGTERM"; status=1; fi
exit $status
