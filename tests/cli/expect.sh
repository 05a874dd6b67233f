# Sourced by the CLI's bad-input scripts. `expect CODE PATTERN -- COMMAND...` runs COMMAND within
# $limit seconds (default 10: refusals are instant, a hang fails) and requires exit CODE and the
# extended regex PATTERN in its stdout+stderr; a mismatch prints the output and sets status=1.
limit=10
status=0
expect() {
  local code=$1 pattern=$2
  shift 3
  local out
  out=$(timeout "$limit" "$@" 2>&1)
  local got=$?
  local shown="$*"
  [ ${#shown} -le 200 ] || shown="${shown:0:197}..."
  if [ "$got" != "$code" ] || ! grep -qE -- "$pattern" <<<"$out"; then
    echo "FAIL: $shown -> exit $got (want $code), output lacks /$pattern/:"
    echo "$out" | head -c 2000 | sed 's/^/    /'
    status=1
  else
    echo "ok: exit $got: $shown"
  fi
}
