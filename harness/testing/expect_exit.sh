#!/usr/bin/env bash
# expect_exit.sh CODE REGEX COMMAND...: runs COMMAND, prints its output, and passes only if it
# exits with CODE and its output matches the extended regex REGEX.
set -u
want_code=$1 want_regex=$2
shift 2
output=$("$@" 2>&1)
code=$?
printf '%s\n' "$output"
if [ "$code" -ne "$want_code" ]; then
  echo "expect_exit: exit status $code, wanted $want_code" >&2
  exit 1
fi
if ! printf "%s\n" "$output" | grep -E -- "$want_regex" >/dev/null; then
  echo "expect_exit: output does not match /$want_regex/" >&2
  exit 1
fi
echo "expect_exit: exit $code and /$want_regex/ as expected"
