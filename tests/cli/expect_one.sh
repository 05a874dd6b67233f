#!/usr/bin/env bash
# One command, one expectation, for add_test calls: PASS_REGULAR_EXPRESSION alone ignores the
# exit status, so a crash after the right line would pass. This requires both (tests/cli/expect.sh).
#   expect_one.sh CODE PATTERN COMMAND...   (EXPECT_LIMIT: seconds allowed, default 10)
set -uo pipefail
code=${1:?usage: expect_one.sh CODE PATTERN COMMAND...}
pattern=${2:?usage: expect_one.sh CODE PATTERN COMMAND...}
shift 2
source "$(dirname "$0")/expect.sh"
limit=${EXPECT_LIMIT:-$limit}
expect "$code" "$pattern" -- "$@"
exit $status
