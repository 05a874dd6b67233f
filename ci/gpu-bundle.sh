#!/usr/bin/env bash
# Run HERE (Debian 12 with apt; `apt-get update` first if its lists are old) before a device
# check: fetches the Debian 12 packages that infergate's GPU build needs into .gpu-bundle/
# (git-ignored, about 30 MiB), for a GPU machine that has a C/C++ compiler, CMake, make or ninja
# and the CUDA toolkit, but none of our libraries, no pkg-config, no apt and no network, and
# whose OS is unknown. ci/gpu-configure.sh (run by ci/gpu-check.sh) unpacks them into a prefix of
# their own (never over /) and points CMake, pkg-config and the loader there. Carry the folder:
# device `run` with carry [".gpu-bundle"]. ci/gpu-bundle-check.sh proves the result on a bare
# Debian 12 (debootstrap minbase + g++, cmake, make).
#   bash ci/gpu-bundle.sh
#
# What is in it, computed rather than hand-kept:
#   roots    the -dev package of each package that configure asks for (the table below; the
#            check after it fails when a CMakeLists.txt asks for one that the table lacks);
#   closure  what `apt-get install --no-install-recommends ROOTS` would install on a machine that
#            has exactly a minimal Debian (Priority required + Essential, with their dependencies:
#            what debootstrap --variant=minbase installs) and the compiler (g++, make and what
#            they bring from the toolchain's own source packages: gcc, binutils, glibc's headers,
#            linux-libc-dev...), computed by apt's own resolver against that made-up dpkg status;
#   add-back the libraries of a minimal Debian that a bundled -dev package's lib*.so link points
#            into (zlib1g for zlib1g-dev, libpcre2-8-0 for libpcre2-dev): without them the link
#            dangles wherever the host is not Debian 12. Never the C/C++ runtime (libc6,
#            libgcc-s1, libstdc++6, libcrypt1): those must come from the host, since a loader or
#            libc on LD_LIBRARY_PATH breaks every program started under it;
#   slimmed  static archives (lib*.a beside their lib*.so, which a shared build never links) and
#            documentation are cut from the .debs (repacked with dpkg-deb; MANIFEST says which),
#            which halves the size: libicudata.a alone is 31 MB.
# Then it unpacks the result once here and fails on a link that dangles, a CMake config that names
# a removed file, or a C/C++ runtime package; MANIFEST records the packages and the newest glibc
# and libstdc++ symbol versions the bundle's binaries need (the host's must have them).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=/usr/bin/python3

# Configure's packages: the CMake name (NAME, NAME:COMPONENT for Boost's libraries, pkg:MODULE
# for pkg_check_modules) and the Debian 12 package that provides it.
declare -A provider=(
  [nlohmann_json]=nlohmann-json3-dev
  [Catch2]=catch2
  [benchmark]=libbenchmark-dev
  [Boost]=libboost-dev
  [Boost:program_options]=libboost-program-options-dev
  [Boost:filesystem]=libboost-filesystem-dev
  [ICU]=libicu-dev
  [PkgConfig]=pkgconf
  [pkg:libpcre2-8]=libpcre2-dev
  [pkg:ucx]=libucx-dev
  [OpenSSL]=libssl-dev
  [SQLite3]=libsqlite3-dev
  [PostgreSQL]=libpq-dev
  [ZLIB]=zlib1g-dev
  [NLopt]=libnlopt-dev
)
# What configure asks for and the bundle leaves out, and why.
declare -A left_out=(
  [Threads]="the C library's"
  [CUDAToolkit]="the GPU machine's CUDA toolkit"
  [MPI]="optional; libopenmpi-dev's closure (a Fortran compiler, hwloc, pmix, libfabric...) is\
 ~115 MB of .debs; without it configure leaves the MPI communicator and multi-rank tests out"
  [OpenBLAS]="optional; only infergate_micro's CPU baseline (not a GPU target)"
  [dnnl]="optional; only infergate_micro's CPU baseline (not a GPU target)"
)
# Never bundled: the C/C++ runtime comes from the host.
never="libc6 libc-bin libgcc-s1 libstdc++6 gcc-12-base libcrypt1"
# The compiler's source packages: g++/make's closure from these counts as the host's.
toolchain_sources=" gcc-12 gcc-defaults binutils glibc linux libxcrypt libnsl libtirpc \
rpcsvc-proto make-dfsg isl mpclib3 mpfr4 jansson "
limit_mib=40

# 1. The check: every package the configure's CMake files ask for is provided or left out on
#    purpose. Read: the CMakeLists.txt and *.cmake that the top-level configure reads (not ci/,
#    fuzz/ or tests/ci/, which are separate projects, nor the optional-package probe).
asked=$("$PY" - <<'EOF'
import re, subprocess
files = subprocess.run(["git", "ls-files", "*CMakeLists.txt", "*.cmake"], capture_output=True,
                       text=True, check=True).stdout.split()
skip = ("ci/", "fuzz/", "tests/ci/", "cmake/optional_probe/")
keywords = {"REQUIRED", "QUIET", "CONFIG", "MODULE", "NO_MODULE", "EXACT", "GLOBAL",
            "OPTIONAL_COMPONENTS", "IMPORTED_TARGET", "NO_CMAKE_PATH", "NO_CMAKE_ENVIRONMENT_PATH"}
names = set()
for path in files:
    if path.startswith(skip):
        continue
    text = "\n".join(line.split("#", 1)[0] for line in open(path, encoding="utf-8"))
    for name, args in re.findall(r"\bfind_package\(\s*([\w$:{}]+)([^)]*)\)", text):
        if "$" in name:
            continue
        names.add(name)
        words = args.split()
        if "COMPONENTS" in words:
            for word in words[words.index("COMPONENTS") + 1:]:
                if word in keywords:
                    break
                names.add(f"{name}:{word}")
    for args in re.findall(r"\bpkg_(?:check|search)_modules?\(\s*\w+([^)]*)\)", text):
        for word in args.split():
            if word not in keywords:
                names.add("pkg:" + re.split(r"[<>=]", word)[0])
    for name in re.findall(r"\binfergate_find_optional\(\s*(\w+)", text):
        names.add(name)
print("\n".join(sorted(names)))
EOF
)
roots=()
unknown=()
for name in $asked; do
  base=${name%%:*}
  if [[ -n ${provider[$name]:-} ]]; then
    roots+=("${provider[$name]}")
  elif [[ -n ${left_out[$base]:-} ]]; then
    continue
  elif [[ $name == *:* && -n ${provider[$base]:-} ]] &&
    ! printf '%s\n' "${!provider[@]}" | grep -q "^$base:"; then
    continue  # one package for every component (ICU, OpenSSL)
  else
    unknown+=("$name")
  fi
done
if [ ${#unknown[@]} -gt 0 ]; then
  echo "gpu-bundle: configure asks for ${unknown[*]}, which ci/gpu-bundle.sh does not know:" \
    "add each to 'provider' (its Debian 12 -dev package) or to 'left_out' (and why)" >&2
  exit 1
fi
mapfile -t roots < <(printf '%s\n' "${roots[@]}" | sort -u)

# 2. The closure, by apt's resolver against a made-up status: a minimal Debian plus the compiler.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"  # apt's sandbox user downloads into it
: >"$work/empty"
inst() {  # inst STATUS PACKAGE...: the packages apt would newly install
  apt-get -s -qq -o Dir::State::status="$1" install --no-install-recommends "${@:2}" >"$work/sim"
  if grep -q '^Inst [^ ]* \[' "$work/sim"; then
    echo "gpu-bundle: apt would upgrade a package of the made-up status:" >&2
    grep '^Inst [^ ]* \[' "$work/sim" >&2
    exit 1
  fi
  awk '/^Inst /{print $2}' "$work/sim" | sort -u
}
mapfile -t required < <(apt-cache dumpavail |
  awk '/^Package:/{p=$2} /^(Priority: required|Essential: yes)/{print p}' | sort -u)
# usr-is-merged named: debootstrap takes it for init-system-helpers' "usrmerge | usr-is-merged",
# where apt alone would take usrmerge, and perl with it, which minbase does not have.
inst "$work/empty" "${required[@]}" usr-is-merged >"$work/base"
inst "$work/empty" "${required[@]}" usr-is-merged g++ make | comm -13 "$work/base" - \
  >"$work/compiler-closure"
# shellcheck disable=SC2046  # word splitting of the package list is meant
apt-cache show --no-all-versions $(cat "$work/compiler-closure") |
  awk '/^Package:/{p=$2; s=$2} /^Source:/{s=$2} /^$/{if(p)print p, s; p=""}' |
  while read -r p s; do
    if [[ $toolchain_sources == *" $s "* ]]; then echo "$p"; fi
  done | sort -u >"$work/compiler"
# The status: the minimal system and the compiler, installed. The compiler's own dependencies are
# dropped (libtirpc3's Kerberos and OpenSSL are not the compiler's: they must be bundled when
# something of ours needs them), and its versions get a "+host" suffix: a stanza that differs
# from the archive's under the same version would look to apt like a package to upgrade.
# shellcheck disable=SC2046
apt-cache show --no-all-versions $(cat "$work/base" "$work/compiler") | "$PY" -c '
import sys
compiler = set(open(sys.argv[1]).read().split())
for stanza in sys.stdin.read().strip().split("\n\n"):
    lines = stanza.splitlines()
    name = lines[0].split()[1]
    if name in compiler:
        lines = [l + "+host" if l.startswith("Version:") else l for l in lines
                 if not l.startswith(("Depends:", "Pre-Depends:"))]
    print("\n".join(lines) + "\nStatus: install ok installed\n")
' "$work/compiler" >"$work/status"
inst "$work/status" "${roots[@]}" >"$work/bundle"
# Add-back: a minimal Debian's libraries that a bundled -dev package depends on directly.
addback=$(grep -- '-dev$' "$work/bundle" | xargs apt-cache depends --no-recommends --no-suggests \
  --no-conflicts --no-breaks --no-replaces --no-enhances |
  awk '/^ *Depends:/{print $2}' | grep -vx -f <(tr ' ' '\n' <<<"$never") |
  grep -x -f "$work/base" | sort -u || true)
mapfile -t packages < <(cat "$work/bundle" - <<<"$addback" | grep . | sort -u)
for p in "${packages[@]}"; do
  if [[ " $never " == *" $p "* ]]; then
    echo "gpu-bundle: $p (the C/C++ runtime) would be bundled: refusing" >&2
    exit 1
  fi
done

# 3. Download, then slim: the packages with static archives are repacked without them (and
#    without their documentation, copyright kept); the others stay as Debian built them.
(cd "$work" && mkdir dl && chmod 777 dl && cd dl && apt-get download "${packages[@]}" >/dev/null)
slimmed=()
for deb in "$work"/dl/*.deb; do
  dpkg-deb -c "$deb" >"$work/contents"
  grep -q '/lib[^/ ]*\.a$' "$work/contents" || continue
  tree="$work/tree"
  rm -rf "$tree"
  dpkg-deb -R "$deb" "$tree"
  cut=()
  while IFS= read -r -d '' a; do
    [[ -e ${a%.a}.so || -L ${a%.a}.so ]] || continue
    # A CMake file naming the archive keeps it, except Boost's static variant files, which name
    # only their own archive and go with it.
    mapfile -t refs < <(grep -rlF --include='*.cmake' "$(basename "$a")" "$tree" || true)
    if printf '%s\n' "${refs[@]}" | grep . | grep -qv -- '-variant-static\.cmake$'; then
      continue
    fi
    [ ${#refs[@]} -eq 0 ] || rm -f "${refs[@]}"
    cut+=("$(basename "$a")")
    rm -f "$a"
  done < <(find "$tree" -name 'lib*.a' -print0)
  [ ${#cut[@]} -gt 0 ] || continue
  find "$tree/usr/share/doc" "$tree/usr/share/man" -type f ! -name copyright -delete 2>/dev/null ||
    true
  dpkg-deb --root-owner-group -Zxz -z9 -b "$tree" "$deb" >/dev/null
  slimmed+=("$(basename "$deb" | cut -d_ -f1): ${cut[*]}")
done

# 4. Check: unpack all into one prefix, as ci/gpu-configure.sh does.
prefix="$work/prefix"
mkdir -p "$prefix"
for deb in "$work"/dl/*.deb; do dpkg-deb -x "$deb" "$prefix"; done
problems=()
while IFS= read -r link; do
  target=$(readlink "$link")
  case $target in
    /*) [[ -e $prefix$target ]] || problems+=("${link#"$prefix"} -> $target (not in the bundle)") ;;
    *) problems+=("${link#"$prefix"} -> $target (dangles)") ;;
  esac
done < <(find "$prefix" -type l \( -lname '/*' -o -xtype l \) ! -path '*/share/doc/*')
[ ${#problems[@]} -eq 0 ] || {
  printf 'gpu-bundle: %s\n' "${problems[@]}" >&2
  exit 1
}
needs=$({ find "$prefix" -type f \( -name '*.so*' -o -path '*/bin/*' \) -exec objdump -p {} + \
  2>/dev/null || true; } | grep -o 'GLIBC_[0-9.]*\|GLIBCXX_[0-9.]*' | sort -uV)
glibc=$(grep '^GLIBC_' <<<"$needs" | tail -1)
glibcxx=$(grep '^GLIBCXX_' <<<"$needs" | tail -1)

rm -rf .gpu-bundle
mkdir -p .gpu-bundle
mv "$work"/dl/*.deb .gpu-bundle/
{
  echo "# ci/gpu-bundle.sh, $(date -u +%F): Debian 12 (bookworm) amd64 packages"
  echo "# roots: ${roots[*]}"
  echo "# add-back: ${addback//$'\n'/ }"
  echo "# never bundled (the host's): $never"
  for k in $(printf '%s\n' "${!left_out[@]}" | sort); do
    echo "# left out: $k: ${left_out[$k]}"
  done
  echo "needs-glibc ${glibc#GLIBC_}"
  echo "needs-libstdc++ $glibcxx"
  for s in "${slimmed[@]}"; do echo "# slimmed (static archives cut, docs cut): $s"; done
  for deb in .gpu-bundle/*.deb; do dpkg-deb -f "$deb" Package Version | paste -sd' '; done |
    sed 's/^Package: \(.*\) Version: /package \1 /'
} >.gpu-bundle/MANIFEST
size_kib=$(du -sk .gpu-bundle | cut -f1)
echo "gpu-bundle: ${#packages[@]} packages, $((size_kib / 1024)) MiB in .gpu-bundle/" \
  "(needs the host's glibc >= ${glibc#GLIBC_} and libstdc++ with $glibcxx);" \
  "carry it to the GPU machine"
echo "  ${packages[*]}"
if [ "$size_kib" -gt $((limit_mib * 1024)) ]; then
  echo "gpu-bundle: over ${limit_mib} MiB: too big to carry with the working tree" >&2
  exit 1
fi
