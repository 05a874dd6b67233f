#!/usr/bin/env bash
# Configures infergate's GPU build: the dependency and configure part of ci/gpu-check.sh, apart so
# that ci/gpu-bundle-check.sh runs exactly this code inside a bare Debian 12 chroot. Sourced
# (from the repository root):
#   source ci/gpu-configure.sh && gpu_configure BUILD_DIR LOG_FILE
# or run alone: bash ci/gpu-configure.sh [BUILD_DIR [LOG_FILE]] (build/gpu, out/gpu-check/...).
# The functions return non-zero and never exit, so the shell that sourced them decides.
#
# 1. The libraries. With .gpu-bundle/ carried (ci/gpu-bundle.sh: Debian 12 packages), they are
#    unpacked into $IG_DEPS (default /tmp/infergate-deps, never /): dpkg-deb -x where it exists,
#    else python3 or ar+tar read the .deb. There, /lib is merged into /usr/lib as Debian 12 has it,
#    the absolute symlinks and the /usr paths of the pkg-config (.pc) and CMake config files are
#    pointed into the prefix, and these are exported for CMake (the child configure of
#    cmake/optional_package.cmake included), the compiler and the programs built:
#      CMAKE_PREFIX_PATH, CMAKE_LIBRARY_PATH  find_package configs and Find modules (ICU,
#                                             PostgreSQL, SQLite3, ZLIB, OpenSSL, Boost, NLopt...),
#                                             multiarch lib dir included for non-Debian hosts
#      PKG_CONFIG, PKG_CONFIG_LIBDIR          the bundle's pkgconf and .pc files (then the host's)
#      C_INCLUDE_PATH, CPLUS_INCLUDE_PATH,    the prefix's headers and libraries for the compiler
#      LIBRARY_PATH                           driver, as /usr's are on Debian (per-arch headers
#                                             such as openssl/configuration.h included)
#      LD_LIBRARY_PATH                        the bundle's shared libraries, for pkgconf, the link
#                                             and every program and test run afterwards
#    Without a bundle, ci/install-deps.sh where apt exists, else whatever the machine has.
# 2. -DINFERGATE_WERROR=ON only with the compiler CI uses (GCC 12); any other gets OFF, said so.
# 3. cmake -S . -B BUILD_DIR (CUDA_ARCHS, default 90), the log in LOG_FILE; after it, a summary of
#    what configure found and what it left out (MPI, NCCL, oneDNN...), or its first errors.

IG_DEPS=${IG_DEPS:-/tmp/infergate-deps}
IG_TRIPLET=x86_64-linux-gnu

gpu_log() { echo "gpu-configure: $*" | tee -a "${IG_LOG:-/dev/null}"; }

# gpu_unpack_deb DEB DIR: a .deb's files into DIR, with whatever this machine has.
gpu_unpack_deb() {
  local how=${IG_UNPACK_WITH:-}
  if [[ -z $how ]]; then
    if command -v dpkg-deb >/dev/null; then how=dpkg-deb
    elif command -v python3 >/dev/null; then how=python3
    else how="ar"; fi
  fi
  case $how in
    dpkg-deb) dpkg-deb -x "$1" "$2" ;;
    python3)
      python3 - "$1" "$2" <<'EOF'
import io, sys, tarfile
data = open(sys.argv[1], "rb").read()
if data[:8] != b"!<arch>\n":
    sys.exit("not a .deb: " + sys.argv[1])
pos = 8
while pos + 60 <= len(data):
    name = data[pos:pos + 16].decode().strip().rstrip("/")
    size = int(data[pos + 48:pos + 58])
    if name.startswith("data.tar"):
        trusted = {"filter": "fully_trusted"} if hasattr(tarfile, "fully_trusted_filter") else {}
        with tarfile.open(fileobj=io.BytesIO(data[pos + 60:pos + 60 + size])) as tar:
            tar.extractall(sys.argv[2], **trusted)
        sys.exit(0)
    pos += 60 + size + (size & 1)
sys.exit("no data.tar in " + sys.argv[1])
EOF
      ;;
    ar)
      local member z
      member=$(ar t "$1" | grep '^data\.tar') || return 1
      case $member in *.xz) z=-J ;; *.gz) z=-z ;; *.zst) z=--zstd ;; *) z= ;; esac
      ar p "$1" "$member" | tar ${z:+"$z"} -xf - -C "$2"
      ;;
  esac
}

# gpu_bundle_unpack: .gpu-bundle/*.deb into $IG_DEPS (again only when the bundle changed).
gpu_bundle_unpack() {
  local p=$IG_DEPS stamp deb failed=() link target
  if [[ $p != /?* || $p == *[[:space:]\#]* ]]; then
    gpu_log "IG_DEPS='$p' must be an absolute path other than / (no spaces or #)"
    return 1
  fi
  stamp=$(cksum .gpu-bundle/*.deb | cksum)
  if [[ -f $p/.bundle-stamp && $(cat "$p/.bundle-stamp") == "$stamp" ]]; then
    gpu_log "bundle already unpacked in $p"
    return 0
  fi
  rm -rf "$p"
  mkdir -p "$p"
  for deb in .gpu-bundle/*.deb; do
    gpu_unpack_deb "$deb" "$p" || failed+=("$(basename "$deb")")
  done
  [ ${#failed[@]} -eq 0 ] || gpu_log "LEFT OUT: could not unpack ${failed[*]}"
  # Debian 12 is /usr-merged: a few packages still ship /lib/..., which the loader sees as
  # /usr/lib/...; merge them so one library directory holds everything.
  for d in lib lib64 bin sbin; do
    if [[ -d $p/$d && ! -L $p/$d ]]; then
      mkdir -p "$p/usr/$d"
      cp -a "$p/$d/." "$p/usr/$d/" && rm -rf "${p:?}/$d"
    fi
  done
  # Absolute symlinks (libz.so -> /lib/x86_64-linux-gnu/libz.so.1.2.13) into the prefix.
  while IFS= read -r link; do
    target=$(readlink "$link")
    target=${target#/usr}
    ln -sfn "$p/usr$target" "$link"
  done < <(find "$p" -type l -lname '/*')
  # The .pc and CMake files name /usr: the prefix's /usr now. A path is /usr at the start of a
  # line or after =, a space, a quote, a parenthesis, -I or -L, and followed by / or its end.
  find "$p" -type f \( -name '*.pc' -o -name '*.cmake' \) -exec sed -i -E \
    -e "s#(^|[=[:space:]\"'(]|-I|-L)/usr/#\\1$p/usr/#g" \
    -e "s#(^|[=[:space:]\"'(]|-I|-L)/usr([[:space:]\"')]|\$)#\\1$p/usr\\2#g" {} +
  echo "$stamp" >"$p/.bundle-stamp"
  local debs=(.gpu-bundle/*.deb)
  gpu_log "bundle: ${#debs[@]} packages unpacked into $p"
}

# gpu_bundle_env: the exports that make the unpacked bundle visible.
gpu_bundle_env() {
  local p=$IG_DEPS/usr lib=$IG_DEPS/usr/lib/$IG_TRIPLET
  export CMAKE_PREFIX_PATH="$p:$lib/cmake${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
  export CMAKE_LIBRARY_PATH="$lib${CMAKE_LIBRARY_PATH:+:$CMAKE_LIBRARY_PATH}"
  export PKG_CONFIG="$p/bin/pkgconf"
  export PKG_CONFIG_LIBDIR="$lib/pkgconfig:$p/share/pkgconfig:/usr/lib/$IG_TRIPLET/pkgconfig:\
/usr/lib64/pkgconfig:/usr/lib/pkgconfig:/usr/share/pkgconfig"
  # The compiler driver sees the prefix as Debian's sees /usr: its include directories as system
  # ones (Debian's per-arch one too: openssl/configuration.h) and its lib directory for -l. A
  # file that includes a header of ours without linking the CMake target that provides it builds
  # on the CI machine, where the header is in /usr/include: so it must here.
  local inc="$p/include/$IG_TRIPLET:$p/include"
  export C_INCLUDE_PATH="$inc${C_INCLUDE_PATH:+:$C_INCLUDE_PATH}"
  export CPLUS_INCLUDE_PATH="$inc${CPLUS_INCLUDE_PATH:+:$CPLUS_INCLUDE_PATH}"
  export LIBRARY_PATH="$lib${LIBRARY_PATH:+:$LIBRARY_PATH}"
  export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  # CMake 4 refuses config files that declare compatibility with CMake < 3.5.
  export CMAKE_POLICY_VERSION_MINIMUM=3.5
  # The bundle's binaries need this glibc and libstdc++ (MANIFEST): the host's, which must be
  # as new as Debian 12's or its loader refuses them.
  local need have stdcxx
  need=$(awk '$1 == "needs-glibc" {print $2}' .gpu-bundle/MANIFEST 2>/dev/null)
  have=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')
  if [[ -z $have ]]; then
    gpu_log "WARNING: not a glibc host? The bundle's Debian libraries need glibc >= $need"
  elif [[ -n $need && $(printf '%s\n' "$need" "$have" | sort -V | head -1) != "$need" ]]; then
    gpu_log "WARNING: the bundle needs glibc >= $need and this host has $have: its" \
      "libraries will not load, so configure or the build will fail"
  else
    gpu_log "host glibc $have (the bundle needs >= $need)"
  fi
  need=$(awk '$1 == "needs-libstdc++" {print $2}' .gpu-bundle/MANIFEST 2>/dev/null)
  stdcxx=$("${CXX:-c++}" -print-file-name=libstdc++.so.6 2>/dev/null)
  if [[ -n $need && -f $stdcxx ]]; then
    if grep -aq "$need" "$stdcxx"; then
      gpu_log "host libstdc++ has $need (the bundle's C++ libraries need it)"
    else
      gpu_log "WARNING: $stdcxx lacks $need (GCC 12's), which the bundle's C++ libraries" \
        "(Boost, ICU, Google Benchmark) need: programs linking them will not load"
    fi
  fi
}

# gpu_werror CXX_ID CXX_VERSION: ON for CI's compiler (GCC 12), else OFF.
gpu_werror() {
  if [[ $1 == GNU && $2 == 12.* ]]; then echo ON; else echo OFF; fi
}

# gpu_compiler BUILD_DIR: "ID VERSION" of the C++ compiler CMake chose there.
gpu_compiler() {
  local files=("$1"/CMakeFiles/*/CMakeCXXCompiler.cmake) f
  f=${files[-1]}
  [[ -f $f ]] || return 1
  sed -n -e 's/^set(CMAKE_CXX_COMPILER_ID "\(.*\)")/\1/p' "$f" | head -1 | tr '\n' ' '
  sed -n -e 's/^set(CMAKE_CXX_COMPILER_VERSION "\(.*\)")/\1/p' "$f" | head -1
}

# gpu_cmake_fix DIR: prints "-DCMAKE_MODULE_PATH=DIR" when this CMake needs the fix below.
# CMake 3.25.1 (Debian 12's) fails in FindCUDAToolkit with CUDA 13, which has no nvToolsExt
# library any more: it marks the CUDA::nvToolsExt target deprecated without checking that it
# exists ("set_property could not find TARGET CUDA::nvToolsExt"), whenever the project requires
# CMake >= 3.25 as ours does. Later CMake checks `TARGET CUDA::nvToolsExt` first; a copy of the
# module with that check, found first through CMAKE_MODULE_PATH, does the same.
gpu_cmake_fix() {
  local root module cond='CMAKE_MINIMUM_REQUIRED_VERSION VERSION_GREATER_EQUAL 3.25'
  mkdir -p "$1"
  # shellcheck disable=SC2016  # CMake's variables, in CMake code
  root=$(printf 'message("${CMAKE_ROOT}")\n' >"$1/root.cmake" && cmake -P "$1/root.cmake" 2>&1)
  module=$root/Modules/FindCUDAToolkit.cmake
  grep -q "^ *if($cond)" "$module" 2>/dev/null || return 0
  # shellcheck disable=SC2016
  sed -e "s/^\( *\)if($cond)/\1if(TARGET CUDA::nvToolsExt AND $cond)/" \
    -e 's#\${CMAKE_CURRENT_LIST_DIR}/#${CMAKE_ROOT}/Modules/#g' \
    "$module" >"$1/FindCUDAToolkit.cmake"
  gpu_log "$(cmake --version | head -1): its FindCUDAToolkit fails without nvToolsExt (CUDA 13);" \
    "configuring with a copy that checks for the target first, as later CMake does" >&2
  echo "-DCMAKE_MODULE_PATH=$1"
}

# gpu_configure BUILD_DIR LOG_FILE: everything above; returns configure's status.
gpu_configure() {
  local build=${1:-build/gpu} log=${2:-out/gpu-check/configure.txt} guess id version werror
  local extra=() rc
  mkdir -p "$(dirname "$log")"
  : >"$log"
  IG_LOG="${log%.txt}-summary.txt"
  : >"$IG_LOG"
  if compgen -G ".gpu-bundle/*.deb" >/dev/null; then
    gpu_bundle_unpack || return 1
    gpu_bundle_env
  elif command -v apt-get >/dev/null; then
    gpu_log "no .gpu-bundle/: installing ci/packages.txt with apt"
    bash ci/install-deps.sh || gpu_log "install-deps failed; trying with what is here"
  else
    gpu_log "no .gpu-bundle/ and no apt: configuring with what this machine has" \
      "(run ci/gpu-bundle.sh on a Debian 12 machine and carry .gpu-bundle/)"
  fi
  command -v ccache >/dev/null && extra+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  local fix
  fix=$(gpu_cmake_fix "$PWD/$build/cmake-fix")
  [[ -z $fix ]] || extra+=("$fix")

  # WERROR from the compiler: guessed from $CXX or c++ (what CMake picks), checked after.
  guess=$("${CXX:-c++}" -dM -E -x c++ /dev/null 2>/dev/null |
    awk '/__clang__/{c=1} /define __GNUC__ /{g=$3} /define __GNUC_MINOR__ /{m=$3}
         END{if (c) print "Clang"; else if (g) print "GNU " g "." m; else print "unknown"}')
  werror=$(gpu_werror "${guess% *}" "${guess#* }")
  local args=(-S . -B "$build" -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCHS:-90}" "${extra[@]}")
  cmake "${args[@]}" -DINFERGATE_WERROR="$werror" >>"$log" 2>&1
  rc=$?
  if read -r id version < <(gpu_compiler "$build"); then
    if [[ $(gpu_werror "$id" "$version") != "$werror" ]]; then
      werror=$(gpu_werror "$id" "$version")
      cmake "${args[@]}" -DINFERGATE_WERROR="$werror" >>"$log" 2>&1
      rc=$?
    fi
    if [[ $werror == ON ]]; then
      gpu_log "compiler $id $version, as CI's: INFERGATE_WERROR=ON"
    else
      gpu_log "compiler $id $version, not CI's GCC 12: INFERGATE_WERROR=OFF" \
        "(warnings are shown, not fatal)"
    fi
  fi
  if [[ $rc -ne 0 ]]; then
    gpu_log "configure FAILED (exit $rc); its first errors ($log):"
    grep -A8 "CMake Error" "$log" | head -40 | tee -a "$IG_LOG"
    return "$rc"
  fi
  # What configure found and what it left out, one line each.
  grep -E "infergate: |Could NOT find|not found|built without" "$log" |
    sed 's/^-- /  /' | tee -a "$IG_LOG"
  # NCCL from pip (nvidia-nccl-cu13) is not where engine/comm looks (beside the CUDA toolkit),
  # and its lib/ has libnccl.so.2 but no libnccl.so for find_library: point configure at it.
  if grep -q "NCCL communicator OFF" "$log" && command -v python3 >/dev/null; then
    local nccl
    nccl=$(timeout 30 python3 -c 'import nvidia.nccl as n; print(list(n.__path__)[0])' 2>/dev/null)
    if [[ -n $nccl && -f $nccl/include/nccl.h && -f $nccl/lib/libnccl.so.2 ]]; then
      gpu_log "NCCL from pip's nvidia-nccl at $nccl: configuring again with it"
      cmake "${args[@]}" -DINFERGATE_WERROR="$werror" -DINFERGATE_NCCL_INCLUDE="$nccl/include" \
        -DINFERGATE_NCCL_LIBRARY="$nccl/lib/libnccl.so.2" >>"$log" 2>&1 || return 1
      export LD_LIBRARY_PATH="$nccl/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
      grep -E "infergate: distributed" "$log" | tail -1 | sed 's/^-- /  /' | tee -a "$IG_LOG"
    fi
  fi
  return 0
}

# gpu_targets BUILD_DIR TARGET...: the TARGETs that configure defined there, one a line; each
# one it did not is named in the log (nothing to build for it beats a failed build).
gpu_targets() {
  local build=$1 t
  shift
  for t in "$@"; do
    if grep -q "/$t\.dir\$" "$build/CMakeFiles/TargetDirectories.txt" 2>/dev/null; then
      echo "$t"
    else
      gpu_log "LEFT OUT: target $t: configure did not define it" >&2
    fi
  done
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  cd "$(dirname "$0")/.." || exit 1
  gpu_configure "${1:-build/gpu}" "${2:-${OUT:-out/gpu-check}/configure.txt}"
fi
