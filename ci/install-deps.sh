#!/usr/bin/env bash
# Installs the Debian 12 packages infergate builds and tests with, listed in ci/packages.txt.
# Idempotent: apt runs only when something is missing. Needs root (or sudo).
set -euo pipefail

packages=()
while read -r line; do
  line=${line%%#*}
  for p in $line; do packages+=("$p"); done
done < "$(dirname "$0")/packages.txt"

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "infergate: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
