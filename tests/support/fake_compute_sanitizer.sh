#!/usr/bin/env bash
# A stand-in for compute-sanitizer, for host tests of `kernel-lab expect` (KL_COMPUTE_SANITIZER
# points at it). Like the real tool when it finds nothing, it prints its banner, runs the
# command after its own options, prints a clean summary and exits with the command's status.
#
# FAKE_SANITIZER_RUN_STATUS=N: instead of running the command, stand in for a `kernel-lab run`
# that launched its kernel, checked the output and ended with status N (0: "check: PASS",
# otherwise "check: FAIL"). Without a GPU that is the only way to show what `expect` makes of
# a run that got as far as its check.
#
# FAKE_SANITIZER_LOSE=N with FAKE_SANITIZER_STATE=FILE (a run count kept in FILE, which the test
# removes first): the first N runs are lost as compute-sanitizer lost one on a shared H200 (the
# kernel ends in cudaErrorLaunchFailure, the tool counts only the CUDA calls' errors, the run
# exits 1); the runs after them stand in for a run whose tool reports FAKE_SANITIZER_REPORT (a
# line after the tool's prefix), exit 1.
set -u

# kernel-lab passes `--option value` pairs (sanitizer_command), then the command.
while [ $# -gt 0 ] && [ "${1#--}" != "$1" ]; do
  shift 2
done
[ $# -gt 0 ] || { echo "fake compute-sanitizer: no command to run" >&2; exit 64; }

echo "========= COMPUTE-SANITIZER"
if [ -n "${FAKE_SANITIZER_LOSE:-}" ]; then
  runs=$(( $(cat "$FAKE_SANITIZER_STATE" 2>/dev/null || echo 0) + 1 ))
  echo "$runs" > "$FAKE_SANITIZER_STATE"
  if [ "$runs" -le "$FAKE_SANITIZER_LOSE" ]; then
    echo '========= Program hit cudaErrorLaunchFailure (error 719) due to "unspecified launch failure" on CUDA API call to cudaDeviceSynchronize.'
    echo '========= Program hit cudaErrorLaunchFailure (error 719) due to "unspecified launch failure" on CUDA API call to cudaFree.'
    echo "kernel-lab: CUDA error: unspecified launch failure (stand-in, run $runs)"
    summary="2 errors"
  else
    echo "========= ${FAKE_SANITIZER_REPORT:-}"
    summary="1 error"
  fi
  [ "${KL_PRINT_EXIT_STATUS:-}" = 1 ] && echo "kernel-lab: exit status 1"
  echo "========= ERROR SUMMARY: $summary"
  exit 86
fi
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
