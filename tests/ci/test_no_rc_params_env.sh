#!/usr/bin/env bash
# No test of this build sets RC_PARAMS in its ctest environment (check_no_rc_params.cmake), so a
# user's RC_PARAMS="reproduce=..." reaches every run; and that check fails, naming the test and
# the entry, on a tree where a test sets RC_PARAMS or modifies it.
# Needs KL_BUILD_DIR (the configured build), KL_CTEST, KL_CMAKE.
# shellcheck source=tests/ci/lib.sh
. "$(dirname "$0")/lib.sh"
: "${KL_BUILD_DIR:?}" "${KL_CTEST:?}" "${KL_CMAKE:?}"
checker=$KL_SOURCE_DIR/tests/ci/check_no_rc_params.cmake

run_check() {
  run_captured "$KL_CMAKE" -DCTEST="$KL_CTEST" -DBUILD_DIR="$1" -P "$checker"
}

run_check "$KL_BUILD_DIR"
echo "$out"
check "this build: no test sets RC_PARAMS" equals "$status" 0
check "...having read its tests" contains "$out" "[1-9][0-9]* tests, none sets RC_PARAMS"

bad=$scratch/bad
mkdir -p "$bad"
cat >"$bad/CTestTestfile.cmake" <<'CT'
add_test(kl.good.property /bin/true)
set_tests_properties(kl.good.property PROPERTIES ENVIRONMENT "KL_CTEST_NAME=kl.good.property;KL_RC_DEFAULTS=max_success=30")
add_test(kl.bad.sets /bin/true)
set_tests_properties(kl.bad.sets PROPERTIES ENVIRONMENT "KL_CTEST_NAME=kl.bad.sets;RC_PARAMS=max_success=30")
add_test(kl.bad.modifies /bin/true)
set_tests_properties(kl.bad.modifies PROPERTIES ENVIRONMENT_MODIFICATION "RC_PARAMS=string_append: max_size=40")
CT
run_check "$bad"
check "a test that sets RC_PARAMS fails the check" test "$status" -ne 0
check "...naming it and the entry" contains "$out" "kl\.bad\.sets: ENVIRONMENT RC_PARAMS=max_success=30"
check "...and the test that modifies it" contains "$out" "kl\.bad\.modifies: ENVIRONMENT_MODIFICATION RC_PARAMS=string_append: max_size=40"
check "...not the test with KL_RC_DEFAULTS" lacks "$out" "kl\.good"
check "...counting two" contains "$out" "2 test\(s\) set RC_PARAMS"

finish
