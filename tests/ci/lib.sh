# Shared by the host tests of ci/: sourced, not run.
# shellcheck shell=bash
set -euo pipefail

: "${KL_SOURCE_DIR:?set KL_SOURCE_DIR to the repository root}"
# The scripts under test read these; the outer ctest run sets some of them for this test itself.
unset KL_CTEST_NAME CTEST_RESOURCE_GROUP_COUNT
failures=0

scratch=$(mktemp -d "${TMPDIR:-/tmp}/kl-ci-test.XXXXXX")
# KL_CI_TEST_KEEP=1 keeps the scratch directory for a look after a failure.
trap '[ "${KL_CI_TEST_KEEP:-0}" = 1 ] && echo "kept $scratch" || rm -rf "$scratch"' EXIT

check() {  # check DESCRIPTION COMMAND...: passes if COMMAND succeeds
  local what=$1
  shift
  if "$@"; then
    echo "ok: $what"
  else
    echo "FAIL: $what" >&2
    failures=$((failures + 1))
  fi
}

# run_captured COMMAND...: runs it, leaving its exit status in $status and stdout+stderr in $out.
# shellcheck disable=SC2034  # out and status are read by the caller
run_captured() {
  status=0
  out=$("$@" 2>&1) || status=$?
}

equals() { [ "$1" = "$2" ] || { echo "  got '$1', wanted '$2'" >&2; return 1; }; }
contains() { printf '%s\n' "$1" | grep -E -- "$2" >/dev/null || { printf '  /%s/ not in:\n%s\n' "$2" "$1" >&2; return 1; }; }
lacks() { ! printf '%s\n' "$1" | grep -E -- "$2" >/dev/null || { printf '  /%s/ unexpectedly in:\n%s\n' "$2" "$1" >&2; return 1; }; }

finish() {
  if [ "$failures" -gt 0 ]; then
    echo "$failures check(s) failed" >&2
    exit 1
  fi
  echo "all checks passed"
}
