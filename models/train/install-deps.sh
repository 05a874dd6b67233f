#!/usr/bin/env bash
# The training recipe's Debian packages (docs/dependencies.md says why each): PyTorch, the regex
# module, and the packages the corpus is read from. Not part of ci/install-deps.sh: CI, the build,
# the tests and the README's commands never train (the trained files are kept in models/trained).
set -euo pipefail
apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
  python3-torch python3-regex python3.11-doc fortunes jargon-text
