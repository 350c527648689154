#!/usr/bin/env bash
# Every GPU test of this build starts through harness/testing/ctest-gpu-env.sh and declares RESOURCE_GROUPS
# (check_gpu_test_resources.cmake), and that check fails, naming the test, on a tree where a GPU
# test lacks either, or a perf or whole-gpu test does not take a whole GPU alone, or a test that
# shares a GPU runs without KL_SHARED_GPU_ENV (one hardware queue per context), or a perf test with it.
# And kl_run_alone (cmake/KernelLabTesting.cmake) turns a shared test into one the check takes as
# whole-GPU, keeping its own environment, and refuses a name that is no test or a missing WHY;
# kl_start_first makes ctest start the tests it names first, in a fresh build directory and after.
# Needs KL_BUILD_DIR (the configured build), KL_CTEST, KL_CMAKE, KL_GPU_SLOTS, KL_SHARED_GPU_ENV.
# shellcheck source=tests/ci/lib.sh
. "$(dirname "$0")/lib.sh"
: "${KL_BUILD_DIR:?}" "${KL_CTEST:?}" "${KL_CMAKE:?}" "${KL_GPU_SLOTS:?}" "${KL_SHARED_GPU_ENV:?}"
checker=$KL_SOURCE_DIR/tests/ci/check_gpu_test_resources.cmake
launcher=$KL_SOURCE_DIR/harness/testing/ctest-gpu-env.sh

run_check() {
  run_captured "$KL_CMAKE" -DCTEST="$KL_CTEST" -DBUILD_DIR="$1" -DLAUNCHER="$launcher" \
    -DSLOTS="$KL_GPU_SLOTS" -DSHARED_ENV="$KL_SHARED_GPU_ENV" -P "$checker"
}

run_check "$KL_BUILD_DIR"
echo "$out"
check "this build: every GPU test can be spread over GPUs" equals "$status" 0

bad=$scratch/bad
mkdir -p "$bad"
cat >"$bad/CTestTestfile.cmake" <<CT
add_test(kl.good.unit "$launcher" /bin/true)
set_tests_properties(kl.good.unit PROPERTIES LABELS "gpu" RESOURCE_GROUPS "gpus:1" ENVIRONMENT "A=1;$KL_SHARED_GPU_ENV")
add_test(kl.good.perf "$launcher" /bin/true)
set_tests_properties(kl.good.perf PROPERTIES LABELS "gpu;perf" RESOURCE_GROUPS "gpus:$KL_GPU_SLOTS" RUN_SERIAL TRUE)
add_test(kl.good.whole "$launcher" /bin/true)
set_tests_properties(kl.good.whole PROPERTIES LABELS "gpu;whole-gpu" RESOURCE_GROUPS "gpus:$KL_GPU_SLOTS" RUN_SERIAL TRUE)
add_test(kl.host.only /bin/true)
set_tests_properties(kl.host.only PROPERTIES LABELS "host")
add_test(kl.bad.no_launcher /bin/true)
set_tests_properties(kl.bad.no_launcher PROPERTIES LABELS "gpu" RESOURCE_GROUPS "gpus:1" ENVIRONMENT "$KL_SHARED_GPU_ENV")
add_test(kl.bad.no_groups "$launcher" /bin/true)
set_tests_properties(kl.bad.no_groups PROPERTIES LABELS "gpu" ENVIRONMENT "$KL_SHARED_GPU_ENV")
add_test(kl.bad.no_shared_env "$launcher" /bin/true)
set_tests_properties(kl.bad.no_shared_env PROPERTIES LABELS "gpu" RESOURCE_GROUPS "gpus:1" ENVIRONMENT "A=1")
add_test(kl.bad.perf_with_shared_env "$launcher" /bin/true)
set_tests_properties(kl.bad.perf_with_shared_env PROPERTIES LABELS "gpu;perf" RESOURCE_GROUPS "gpus:$KL_GPU_SLOTS" RUN_SERIAL TRUE ENVIRONMENT "$KL_SHARED_GPU_ENV")
add_test(kl.bad.perf_shares "$launcher" /bin/true)
set_tests_properties(kl.bad.perf_shares PROPERTIES LABELS "gpu;perf" RESOURCE_GROUPS "gpus:1")
add_test(kl.bad.whole_shares "$launcher" /bin/true)
set_tests_properties(kl.bad.whole_shares PROPERTIES LABELS "gpu;whole-gpu" RESOURCE_GROUPS "gpus:1" ENVIRONMENT "$KL_SHARED_GPU_ENV")
CT
run_check "$bad"
check "a bad tree fails" test "$status" -ne 0
check "...naming the test without the launcher" contains "$out" "kl\.bad\.no_launcher: command does not start with"
check "...the test without RESOURCE_GROUPS" contains "$out" "kl\.bad\.no_groups: RESOURCE_GROUPS is \(none\), wanted kl_gpu_resources\(kl\.bad\.no_groups\)"
check "...the perf test that shares a GPU" contains "$out" "kl\.bad\.perf_shares: RESOURCE_GROUPS is gpus:1, wanted kl_gpu_resources\(kl\.bad\.perf_shares WHOLE_GPU\)"
check "...and that is not RUN_SERIAL" contains "$out" "kl\.bad\.perf_shares: a whole-GPU test must be RUN_SERIAL"
check "...the whole-gpu test that shares a GPU" contains "$out" "kl\.bad\.whole_shares: RESOURCE_GROUPS is gpus:1, wanted kl_gpu_resources\(kl\.bad\.whole_shares WHOLE_GPU\)"
check "...not RUN_SERIAL" contains "$out" "kl\.bad\.whole_shares: a whole-GPU test must be RUN_SERIAL"
check "...and with the shared environment" contains "$out" "kl\.bad\.whole_shares: a whole-GPU test must not run with ${KL_SHARED_GPU_ENV}"
check "...the test that shares a GPU without one queue per context" contains "$out" "kl\.bad\.no_shared_env: ENVIRONMENT lacks ${KL_SHARED_GPU_ENV}"
check "...the perf test that runs with it" contains "$out" "kl\.bad\.perf_with_shared_env: a whole-GPU test must not run with ${KL_SHARED_GPU_ENV}"
check "...and no good or host test" lacks "$out" "kl\.good|kl\.host"
check "...counting nine problems" contains "$out" "9 problem\(s\): GPU tests that cannot be spread"

# configure_with WRITE DIR CALL: the project in DIR, written by WRITE with CALL, configured.
configure_with() {
  "$1" "$3"
  run_captured "$KL_CMAKE" -S "$2" -B "$2/build"
}

# check_refusals WRITE DIR FN DOES TEST: FN, written by WRITE into the project in DIR, fails to
# configure on a name that is no test and on a call naming TEST without WHY or with an empty one,
# saying which; a WHY that CMake would read as false ("No") is a reason all the same.
check_refusals() {
  local write=$1 dir=$2 fn=$3 does=$4 test_name=$5
  local missing="$fn: name at least one test and say WHY it $does"
  configure_with "$write" "$dir" "$fn(kl.missing WHY \"seen\")"
  check "$fn: a name that is no test fails to configure" test "$status" -ne 0
  check "...naming it" contains "$out" "$fn: no test named kl\.missing in this directory"
  configure_with "$write" "$dir" "$fn($test_name)"
  check "$fn: no WHY fails to configure" test "$status" -ne 0
  check "...saying what is missing" contains "$out" "$missing"
  configure_with "$write" "$dir" "$fn($test_name WHY \"\")"
  check "$fn: an empty WHY fails to configure" test "$status" -ne 0
  check "...as a missing one" contains "$out" "$missing"
  configure_with "$write" "$dir" "$fn($test_name WHY \"No\")"
  check "$fn: a WHY that reads as false in CMake configures" equals "$status" 0
  check "...and is printed as the reason" contains "$out" ": No$"
}

# kl_run_alone in a project of its own: the test it takes alone passes the check as a whole-GPU
# test and keeps its own environment; a name that is no test, or no WHY, fails to configure.
alone=$scratch/alone
mkdir -p "$alone"
write_project() {  # write_project CALL: a project with one shared GPU test, then CALL
  cat >"$alone/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.25)
project(alone NONE)
enable_testing()
include("$KL_SOURCE_DIR/cmake/KernelLabTesting.cmake")
add_test(NAME kl.x COMMAND \${KL_GPU_LAUNCHER} /bin/true)
set_tests_properties(kl.x PROPERTIES LABELS "gpu" ENVIRONMENT "A=1")
kl_gpu_resources(kl.x)
$1
CM
}
write_project 'kl_run_alone(kl.x WHY "seen failing beside others")'
run_captured "$KL_CMAKE" -S "$alone" -B "$alone/build"
check "kl_run_alone configures" equals "$status" 0
check "...saying why at configure time" contains "$out" "kernel-lab: kl\.x run alone on a GPU: seen failing beside others"
configured=$out
run_check "$alone/build"
check "...and its test passes the check" equals "$status" 0 || echo "$configured"
run_captured "$KL_CTEST" --test-dir "$alone/build" --show-only=json-v1
check "...labelled whole-gpu" contains "$out" '"whole-gpu"'
check "...keeping its own environment" contains "$out" '"A=1"'
check "...without the shared one" lacks "$out" "${KL_SHARED_GPU_ENV}"
check_refusals write_project "$alone" kl_run_alone "runs alone" kl.x

# kl_start_first in a project of its own: in a fresh build directory (no timings) ctest -j starts
# the test it names before the two declared ahead of it, and again once ctest has timed them all;
# a name that is no test, or no WHY, fails to configure.
first=$scratch/first
mkdir -p "$first"
write_first() {  # write_first CALL: a project of three tests, then CALL
  rm -rf "$first/build"
  cat >"$first/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.25)
project(first NONE)
enable_testing()
include("$KL_SOURCE_DIR/cmake/KernelLabTesting.cmake")
add_test(NAME kl.a COMMAND "$KL_CMAKE" -E true)
add_test(NAME kl.b COMMAND "$KL_CMAKE" -E true)
add_test(NAME kl.last COMMAND "$KL_CMAKE" -E true)
$1
CM
}
first_started() {  # the name of the first test a run of ctest -j 2 in $first/build starts
  "$KL_CTEST" --test-dir "$first/build" -j 2 | grep -m 1 -o 'Start *[0-9]*: kl\.[a-z]*' | sed 's/.*: //'
}
write_first ''
run_captured "$KL_CMAKE" -S "$first" -B "$first/build"
check "without kl_start_first ctest starts the first declared" equals "$(first_started)" kl.a
write_first 'kl_start_first(kl.last WHY "it ends the tier")'
run_captured "$KL_CMAKE" -S "$first" -B "$first/build"
check "kl_start_first configures" equals "$status" 0
check "...saying why at configure time" contains "$out" "kernel-lab: kl\.last start first: it ends the tier"
check "...and ctest starts the test it names first" equals "$(first_started)" kl.last
check "...and again once ctest has timed every test" equals "$(first_started)" kl.last
check_refusals write_first "$first" kl_start_first "starts first" kl.last

finish
