#!/usr/bin/env bash
# Proves .gpu-bundle/ (ci/gpu-bundle.sh) on a clean Debian 12: run as root HERE, not in CI; the
# first run takes 25-40 minutes on 2 cores (mostly compiling infergate), a rerun less.
#   bash ci/gpu-bundle.sh && bash ci/gpu-bundle-check.sh [--fresh] [--clean]
# 1. A chroot of `debootstrap --variant=minbase bookworm` with only what a GPU image is assumed to
#    have added: g++, cmake and make (nothing of ours: no -dev package, no pkg-config; checked).
#    Kept in $IG_CHECK_DIR/root (default /tmp/infergate-gpu-chroot) for the next run; --fresh
#    makes it again. The package list of the bare minbase system is kept beside it.
# 2. The tree: `git archive HEAD`, the working tree's ci/ over it, and .gpu-bundle/, synced into
#    $IG_CHECK_DIR/src (only changed files touched, so the build there is incremental; --clean
#    builds from nothing), and bind-mounted at /src with /usr/local/cuda read-only.
# 3. Inside: ci/gpu-configure.sh's gpu_configure, the very code ci/gpu-check.sh runs, then the GPU
#    targets built with nvcc (`nice -n 10`, -j2; no GPU is needed to compile and link).
# 4. Inside: `infergate --help`; `infergate generate --backend cuda` must refuse (no device); the
#    GPU test and benchmark programs must start and skip (exit 77, no device); and every shared
#    library the built programs load must come from the bundle, the CUDA toolkit, or a package
#    of the bare minbase system, never from what g++ or cmake brought.
# Logs: $IG_CHECK_DIR/logs/. Exit 0 when all of it holds.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${IG_CHECK_DIR:-/tmp/infergate-gpu-chroot}
root=$dir/root
src=$dir/src
logs=$dir/logs
mirror=${IG_MIRROR:-http://deb.debian.org/debian}
cuda=$(readlink -f /usr/local/cuda)
targets=(infergate test_cuda_kernels test_cuda_engine infergate_cuda_micro)
fresh=0
clean=0
for arg in "$@"; do
  case $arg in
    --fresh) fresh=1 ;;
    --clean) clean=1 ;;
    *) echo "usage: gpu-bundle-check.sh [--fresh] [--clean]"; exit 2 ;;
  esac
done

if [ "$(id -u)" -ne 0 ]; then
  echo "gpu-bundle-check: run as root (debootstrap, chroot, mount)"
  exit 2
fi
compgen -G ".gpu-bundle/*.deb" >/dev/null ||
  { echo "gpu-bundle-check: no .gpu-bundle/: run ci/gpu-bundle.sh first"; exit 2; }
[[ -x $cuda/bin/nvcc ]] || { echo "gpu-bundle-check: no CUDA toolkit at /usr/local/cuda"; exit 2; }
mkdir -p "$logs"
log() { echo "== gpu-bundle-check [$(date +%T)] $*" | tee -a "$logs/check.txt"; }
: >"$logs/check.txt"

mounted() { grep -q " $1 " /proc/mounts; }
mounts=()
unmount_all() {
  local i
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" || true
  done
  mounts=()
}
trap unmount_all EXIT
bind() {  # bind FROM TO [ro]
  mkdir -p "$2"
  mounted "$2" || mount --bind "$1" "$2"
  mounts+=("$2")
  [[ ${3:-} != ro ]] || mount -o remount,bind,ro "$2"
}

# 1. The chroot, made once.
missing=()
for tool in debootstrap rsync; do command -v "$tool" >/dev/null || missing+=("$tool"); done
if [ ${#missing[@]} -gt 0 ]; then
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi
for m in "$root/proc" "$root/dev" "$root/src" "$root/usr/local/cuda"; do
  if mounted "$m"; then
    echo "gpu-bundle-check: $m is still mounted (another run?)"
    exit 2
  fi
done
if [[ $fresh == 1 || ! -f $root/.infergate-ready ]]; then
  log "making the chroot: debootstrap --variant=minbase bookworm $root"
  rm -rf "$root"
  debootstrap --variant=minbase bookworm "$root" "$mirror" >"$logs/debootstrap.txt" 2>&1 ||
    { tail -20 "$logs/debootstrap.txt"; exit 1; }
  # shellcheck disable=SC2016  # dpkg-query's format, not the shell's
  chroot "$root" dpkg-query -W -f '${Package}\n' | sort >"$dir/minbase-packages.txt"
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  bind /proc "$root/proc"
  bind /dev "$root/dev"
  log "adding what a GPU image has: g++ cmake make"
  chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
    sh -c 'apt-get update -qq && apt-get install -y -qq --no-install-recommends g++ cmake make' \
    >"$logs/apt.txt" 2>&1 || { tail -20 "$logs/apt.txt"; exit 1; }
  chroot "$root" apt-get clean
  unmount_all
  touch "$root/.infergate-ready"
fi
# shellcheck disable=SC2016
chroot "$root" dpkg-query -W -f '${Package}\n' | sort >"$dir/chroot-packages.txt"
# None of the bundle's headers, CMake or pkg-config files, nor pkg-config, may be installed there:
# that would hide a gap in the bundle. Some of its runtime libraries come with Debian's cmake
# (libcurl4's OpenSSL and Kerberos, libxml2's ICU): step 4 checks that the programs load the
# bundle's copies, not those.
added=$(comm -13 "$dir/minbase-packages.txt" "$dir/chroot-packages.txt")
ours=$(awk '$1 == "package" {print $2}' .gpu-bundle/MANIFEST | sort)
leak=$(comm -12 <(grep -- '-dev$\|-devtools$\|^catch2$\|^pkgconf' <<<"$ours") <(echo "$added"))
if [[ -n $leak ]] || grep -qx 'pkgconf\|pkg-config' "$dir/chroot-packages.txt"; then
  echo "gpu-bundle-check: the chroot has the bundle's development packages: ${leak//$'\n'/ }"
  exit 1
fi
shared=$(comm -12 <(echo "$ours") <(echo "$added"))
[[ -z $shared ]] || log "in the chroot for cmake, and in the bundle: ${shared//$'\n'/ }"
log "chroot: $(wc -l <"$dir/minbase-packages.txt") minbase packages," \
  "$(($(wc -l <"$dir/chroot-packages.txt") - $(wc -l <"$dir/minbase-packages.txt"))) more for" \
  "g++ $(chroot "$root" g++ -dumpfullversion), $(chroot "$root" cmake --version | head -1), make"

# 2. The tree: HEAD, the working tree's ci/ and the bundle.
stage=$dir/stage
rm -rf "$stage"
mkdir -p "$stage" "$src"
git archive HEAD | tar -x -C "$stage"
git ls-files -co --exclude-standard ci | tar -c -T - | tar -x -C "$stage"
cp -a .gpu-bundle "$stage/"
rsync -rlc --delete --exclude=/build/ --exclude=/out/ "$stage/" "$src/"
[[ $clean == 0 ]] || rm -rf "$src/build/gpu"
rm -rf "$stage"
log "tree: HEAD $(git rev-parse --short HEAD) + the working tree's ci/ + .gpu-bundle/ in $src"
cp "$dir/minbase-packages.txt" "$root/minbase-packages.txt"
bind /proc "$root/proc"
bind /dev "$root/dev"
bind "$src" "$root/src"
bind "$cuda" "$root/usr/local/cuda" ro

# 3 and 4, inside: the same configure as ci/gpu-check.sh, the build, the programs.
inside() {
  chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
    PATH=/usr/local/cuda/bin:/usr/sbin:/usr/bin:/sbin:/bin CUDA_ARCHS="${CUDA_ARCHS:-90}" \
    IG_DEPS=/tmp/infergate-deps /bin/bash -c "cd /src && source ci/gpu-configure.sh && $1"
}
log "configure (ci/gpu-configure.sh, as ci/gpu-check.sh runs it)"
rc=0
inside 'gpu_configure build/gpu out/bundle-check/configure.txt' 2>&1 | tee -a "$logs/check.txt" ||
  rc=$?
cp "$src/out/bundle-check/configure.txt" "$logs/configure.txt" 2>/dev/null || true
[[ $rc -eq 0 ]] || { log "FAILED: configure (log: $logs/configure.txt)"; exit 1; }
# What configure found outside the bundle and the toolkit (the compiler's, the C library's).
grep -E '^[A-Za-z0-9_]+_(LIBRARY|INCLUDE_DIR|EXECUTABLE)[A-Z_]*:[A-Z]+=/' \
  "$src/build/gpu/CMakeCache.txt" | grep -v '/tmp/infergate-deps\|/usr/local/cuda' |
  sed 's/^/  outside the bundle: /' | tee -a "$logs/check.txt" || true
built=$(inside "gpu_targets build/gpu ${targets[*]}" 2>&1 | tee -a "$logs/check.txt" |
  grep -v '^gpu-configure:' | paste -sd' ')
log "build: $built (nice -n 10, -j2; log: $logs/build.txt)"
start=$(date +%s)
if ! inside "gpu_bundle_env >/dev/null; nice -n 10 cmake --build build/gpu -j2 --target $built" \
  >"$logs/build.txt" 2>&1; then
  grep -E "error|Error" "$logs/build.txt" | head -40
  log "FAILED: build"
  exit 1
fi
log "built in $(($(date +%s) - start)) s"
echo "$built" >"$src/out/bundle-check/targets.txt"

log "run: the programs inside the chroot"
# shellcheck disable=SC2016  # expanded inside the chroot
inside '
gpu_bundle_env >/dev/null
set -u
bin=build/gpu/cli/infergate
echo "\$ infergate --help | head -4"
"$bin" --help | head -4
echo "\$ infergate generate --model tiny --backend cuda --max-tokens 2"
"$bin" generate --model tiny --backend cuda --max-tokens 2 >/tmp/gen.txt 2>&1
rc=$?
cat /tmp/gen.txt
echo "(exit $rc)"
ok=1
[[ $rc -ne 0 ]] && grep -q "no CUDA device is usable here" /tmp/gen.txt || ok=0
# The GPU programs start, load their libraries and stop at the device check: exit 77, skipped.
for name in test_cuda_kernels test_cuda_engine infergate_cuda_micro; do
  f=$(find build/gpu -name "$name" -type f -perm -u+x | head -1)
  [[ -n $f ]] || continue
  echo "\$ $name"
  "$f" 2>&1 | head -3
  rc=${PIPESTATUS[0]}
  echo "(exit $rc)"
  [[ $rc == 77 ]] || ok=0
done
# Where each shared library comes from: the bundle, the CUDA toolkit, or a package of the bare
# minbase system.
for name in $(cat out/bundle-check/targets.txt); do
  f=$(find build/gpu -name "$name" -type f -perm -u+x | head -1)
  [[ -n $f ]] || { echo "MISSING: $name was not built"; ok=0; continue; }
  while read -r lib _ path _; do
    case $path in
      "not") echo "$name: $lib NOT FOUND"; ok=0 ;;
      /tmp/infergate-deps/*) echo "$name: $lib bundle" ;;
      /usr/local/cuda/*|/usr/local/cuda-*) echo "$name: $lib cuda" ;;
      /*)
        pkg=$(dpkg -S "$path" 2>/dev/null || dpkg -S "${path#/usr}" 2>/dev/null ||
          dpkg -S "/usr$path" 2>/dev/null || echo "?: none")
        pkg=${pkg%%:*}
        if grep -qx "$pkg" /minbase-packages.txt; then
          echo "$name: $lib minbase ($pkg)"
        else
          echo "$name: $lib from $pkg, which a bare system lacks: NOT IN THE BUNDLE"; ok=0
        fi ;;
    esac
  done < <(ldd "$f" | grep "=>")
done
[[ $ok == 1 ]]
' >"$logs/run.txt" 2>&1 && run_ok=1 || run_ok=0
grep -v ": .* \(bundle\|cuda\|minbase (.*)\)$" "$logs/run.txt" | tee -a "$logs/check.txt"
echo "libraries: $(grep -c ' bundle$' "$logs/run.txt") from the bundle," \
  "$(grep -c ' cuda$' "$logs/run.txt") from CUDA, $(grep -c ' minbase (' "$logs/run.txt")" \
  "from minbase (by program; details in $logs/run.txt)" | tee -a "$logs/check.txt"
if [[ $run_ok == 1 ]]; then
  log "PASSED: the bundle configures, builds and runs on a bare Debian 12 + g++, cmake, make"
else
  log "FAILED: see $logs/run.txt"
  exit 1
fi
