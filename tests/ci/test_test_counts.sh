#!/usr/bin/env bash
# This build registers, per label, the number of tests tests/ci/test-counts.txt records for its
# preset (check_test_counts.cmake); and that check fails, naming the label with both counts, on a
# tree that lost a test, gained one, or has a label the file does not know.
# Needs KL_BUILD_DIR (the configured build), KL_CTEST, KL_CMAKE, KL_PRESET; KL_UNCOUNTED_TESTS
# (;-separated) names the tests the build registers or not depending on the machine.
# shellcheck source=tests/ci/lib.sh
. "$(dirname "$0")/lib.sh"
: "${KL_BUILD_DIR:?}" "${KL_CTEST:?}" "${KL_CMAKE:?}" "${KL_PRESET?}"
checker=$KL_SOURCE_DIR/tests/ci/check_test_counts.cmake

run_check() {  # build dir, preset, counts file
  run_captured "$KL_CMAKE" -DCTEST="$KL_CTEST" -DBUILD_DIR="$1" -DPRESET="$2" -DCOUNTS="$3" \
    -DUNCOUNTED="${KL_UNCOUNTED_TESTS:-}" -P "$checker"
}

run_check "$KL_BUILD_DIR" "$KL_PRESET" "$KL_SOURCE_DIR/tests/ci/test-counts.txt"
echo "$out"
if [ "$status" -eq 0 ] && printf '%s\n' "$out" | grep -q "no counts recorded for preset"; then
  echo "tests/ci/test-counts.txt records no counts for preset '$KL_PRESET': skipped"
  exit 77
fi
check "this build: every label's count as recorded for preset $KL_PRESET" equals "$status" 0

tree=$scratch/tree
mkdir -p "$tree"
cat >"$tree/CTestTestfile.cmake" <<'CT'
add_test(kl.a.unit /bin/true)
set_tests_properties(kl.a.unit PROPERTIES LABELS "gpu")
add_test(kl.a.unit.memcheck /bin/true)
set_tests_properties(kl.a.unit.memcheck PROPERTIES LABELS "gpu;sanitizer;memcheck")
add_test(kl.a.property /bin/true)
set_tests_properties(kl.a.property PROPERTIES LABELS "gpu;property;extra")
add_test(kl.a.optional /bin/true)
set_tests_properties(kl.a.optional PROPERTIES LABELS "gpu")
CT
KL_UNCOUNTED_TESTS="kl.report.browser;kl.a.optional"  # registered or not by the machine: not counted
cat >"$scratch/counts.txt" <<'TXT'
# preset label count
demo gpu 3
demo sanitizer 2      # one sanitizer run lost
demo memcheck 1
demo property 1
other gpu 99
TXT
run_check "$tree" demo "$scratch/counts.txt"
check "a tier that lost a test fails the check" test "$status" -ne 0
check "...naming the label and both counts" contains "$out" "sanitizer 2 1   <- differs"
check "...and a label the file does not record" contains "$out" "extra 0 1   <- differs"
check "...not a label that holds" lacks "$out" "memcheck 1 1   <- differs"
check "...counting two" contains "$out" "2 label\(s\) registered a different number"

printf 'demo gpu 3\ndemo memcheck 1\ndemo sanitizer 1\ndemo property 1\ndemo extra 1\n' >"$scratch/right.txt"
run_check "$tree" demo "$scratch/right.txt"
check "the same tree against its true counts passes" equals "$status" 0

run_check "$tree" unknown "$scratch/right.txt"
check "a preset with no recorded counts checks nothing" equals "$status" 0
check "...and says so (the test then exits 77, skipped)" contains "$out" "no counts recorded for preset 'unknown'"

printf 'demo gpu three\n' >"$scratch/bad.txt"
run_check "$tree" demo "$scratch/bad.txt"
check "a malformed counts file fails" test "$status" -ne 0
check "...naming the line" contains "$out" "malformed line 'demo gpu three'"

finish
