#!/usr/bin/env bash
# Every GPU test of this build starts through harness/testing/ctest-gpu-env.sh and declares RESOURCE_GROUPS
# (check_gpu_test_resources.cmake), and that check fails, naming the test, on a tree where a GPU
# test lacks either, or a perf or whole-gpu test does not take a whole GPU alone, or a test that
# shares a GPU runs without KL_SHARED_GPU_ENV (one hardware queue per context), or a perf test with it.
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

finish
