#!/usr/bin/env bash
# A stand-in for compute-sanitizer, for host tests of `kernel-lab expect` (KL_COMPUTE_SANITIZER
# points at it). Like the real tool when it finds nothing, it prints its banner, runs the
# command after its own options, prints a clean summary and exits with the command's status.
#
# FAKE_SANITIZER_RUN_STATUS=N: instead of running the command, stand in for a `kernel-lab run`
# that launched its kernel, checked the output and ended with status N (0: "check: PASS",
# otherwise "check: FAIL"). Without a GPU that is the only way to show what `expect` makes of
# a run that got as far as its check.
set -u

# kernel-lab passes `--option value` pairs (sanitizer_command), then the command.
while [ $# -gt 0 ] && [ "${1#--}" != "$1" ]; do
  shift 2
done
[ $# -gt 0 ] || { echo "fake compute-sanitizer: no command to run" >&2; exit 64; }

echo "========= COMPUTE-SANITIZER"
if [ -n "${FAKE_SANITIZER_RUN_STATUS:-}" ]; then
  status=$FAKE_SANITIZER_RUN_STATUS
  echo "$*: (stood in for by the fake compute-sanitizer)"
  if [ "$status" -eq 0 ]; then echo "check: PASS (stand-in)"; else echo "check: FAIL (stand-in)"; fi
  # The line kernel-lab prints last when KL_PRINT_EXIT_STATUS=1 (harness/cli/sanitizer.hpp).
  [ "${KL_PRINT_EXIT_STATUS:-}" = 1 ] && echo "kernel-lab: exit status $status"
else
  "$@"
  status=$?
fi
echo "========= ERROR SUMMARY: 0 errors"
exit "$status"
