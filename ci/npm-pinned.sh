# Sourced by the scripts that install pinned npm packages for the interop tests and benchmarks
# (ci/node-llama-cpp.sh, ci/node-hf.sh): makes sure Node.js (>= 20) and npm are present (from apt
# when missing) and defines npm_pinned_install. The caller defines `skip MESSAGE...` (it must
# exit), which runs when something cannot be installed.

install_with_apt() {  # packages...; never prompts (sudo -n)
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || return 1
    sudo="sudo -n"
  fi
  command -v apt-get >/dev/null || return 1
  echo "npm-pinned: installing $* with apt"
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
[ "$node_major" -ge 20 ] || skip "Node.js $(node --version) is too old (the pinned packages need >= 20)"

# npm_pinned_install DIR STAMP DESCRIPTION DEPENDENCIES_JSON: installs the exact packages of
# DEPENDENCIES_JSON ({"name": "version", ...}) into DIR/node_modules once (STAMP names the
# installed set), from the npm registry only and with no install scripts, one installer at a
# time (parallel ctest runs share the cache). --omit=optional leaves out other platforms'
# binaries. A private npm cache, deleted afterwards, keeps ~/.npm clean; short timeouts make
# "offline" a skip.
npm_pinned_install() {
  local dir=$1 stamp=$1/.installed-$2 description=$3 dependencies=$4
  mkdir -p "$(dirname "$dir")"
  exec 9>"$dir.lock"
  flock 9
  if [ ! -f "$stamp" ]; then
    echo "npm-pinned: installing $dependencies into $dir"
    rm -rf "$dir"
    mkdir -p "$dir"
    printf '{"name": "infergate-pinned", "private": true, "description": "%s",\n "dependencies": %s}\n' \
      "$description" "$dependencies" >"$dir/package.json"
    if ! (cd "$dir" && timeout 600 npm install --omit=optional --ignore-scripts --no-audit \
            --no-fund --no-update-notifier --loglevel=error --cache "$dir/.npm-cache" \
            --fetch-timeout=60000 --fetch-retries=1 >npm-install.log 2>&1); then
      tail -n 20 "$dir/npm-install.log" >&2 || true
      rm -rf "$dir/.npm-cache"
      exec 9>&-
      skip "npm could not install $dependencies (no network?); log: $dir/npm-install.log"
    fi
    rm -rf "$dir/.npm-cache"
    touch "$stamp"
  fi
  exec 9>&-
}
