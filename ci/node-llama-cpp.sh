# Sourced by scripts that run llama.cpp through the npm package node-llama-cpp
# (ci/interop-llama-cpp.sh, bench/programs/llama_cpp/measure_vs_llama_cpp.sh): makes sure Node.js (>= 20)
# and npm are present (from apt when missing), installs node-llama-cpp (pinned) once into
# $INFERGATE_CACHE/node-llama-cpp (default ~/.cache/infergate) from the npm registry only (no
# install scripts, no llama.cpp download or build), and exports INFERGATE_NODE_MODULES, the
# folder holding its node_modules/. The caller defines `skip MESSAGE...` (it must exit), which
# runs when something cannot be installed.

readonly NODE_LLAMA_CPP_VERSION=3.22.1
cache=${INFERGATE_CACHE:-${HOME:-/tmp}/.cache/infergate}/node-llama-cpp

# --- Node.js and npm -------------------------------------------------------------------------
install_with_apt() {  # packages...; never prompts (sudo -n)
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || return 1
    sudo="sudo -n"
  fi
  command -v apt-get >/dev/null || return 1
  echo "node-llama-cpp: installing $* with apt"
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
  echo "node-llama-cpp: installing node-llama-cpp@$NODE_LLAMA_CPP_VERSION (@node-llama-cpp/$platform)" \
       "into $cache"
  rm -rf "$cache"
  mkdir -p "$cache"
  cat >"$cache/package.json" <<EOF
{
  "name": "infergate-interop-llama-cpp",
  "private": true,
  "description": "llama.cpp for infergate, installed by ci/node-llama-cpp.sh",
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
