#!/usr/bin/env bash
# ci/gpu.sh: fails loudly when the GPU, nvcc or compute-sanitizer is missing, and turns a finished
# ctest run into artifacts and a Markdown summary. Fakes stand in for the driver and the toolkit;
# the run summarised is a real ctest run of stand-in tests with the formats of the real ones.
# shellcheck source=tests/ci/lib.sh
. "$(dirname "$0")/lib.sh"
: "${KL_CTEST:=ctest}"
gpu_sh=$KL_SOURCE_DIR/ci/gpu.sh

bin=$scratch/bin
mkdir -p "$bin"
cat >"$bin/nvidia-smi" <<'SMI'
#!/bin/sh
[ -n "${FAKE_SMI_FAIL:-}" ] && { echo "No devices were found"; exit 6; }
case "$*" in
  *index,name*) printf '0, Fake GPU, 1.0, 1024 MiB\n1, Fake GPU, 1.0, 1024 MiB\n' ;;
  *index*) printf '0\n1\n' ;;
  *) echo "fake nvidia-smi" ;;
esac
SMI
printf '#!/bin/sh\necho "Cuda compilation tools, release 13.0 (fake)"\n' >"$bin/nvcc"
printf '#!/bin/sh\necho "NVIDIA (R) Compute Sanitizer"\necho "Version 2025.3.0 (fake)"\n' >"$bin/compute-sanitizer"
chmod +x "$bin"/*

# gpu CMD...: ci/gpu.sh with the fakes first on PATH and a step summary file to write to.
step=$scratch/step-summary.md
gpu() {
  env PATH="$bin:$PATH" CUDACXX="$bin/nvcc" KL_COMPUTE_SANITIZER="$bin/compute-sanitizer" \
    GITHUB_STEP_SUMMARY="$step" "$@"
}

run_captured gpu "$gpu_sh" --check
check "--check with a GPU, nvcc and compute-sanitizer: exit 0" equals "$status" 0
check "...lists the GPUs" contains "$out" "0, Fake GPU"
check "...names the compute-sanitizer it will use" contains "$out" "compute-sanitizer: $bin/compute-sanitizer \(Version 2025\.3\.0 \(fake\)\)"

: >"$step"
run_captured gpu env FAKE_SMI_FAIL=1 "$gpu_sh" --check
check "nvidia-smi finds no GPU: exit 2" equals "$status" 2
check "...says why" contains "$out" "FAILED: nvidia-smi cannot query the GPUs: No devices were found"
check "...on the job summary too" contains "$(cat "$step")" "Could not run.*nvidia-smi cannot query the GPUs"

if ! PATH=/usr/bin:/bin command -v nvidia-smi >/dev/null; then
  run_captured env PATH=/usr/bin:/bin "$gpu_sh" --check
  check "no nvidia-smi at all: exit 2" equals "$status" 2
  check "...says there is no driver" contains "$out" "nvidia-smi not found"
fi

run_captured gpu env CUDACXX=/nonexistent/nvcc "$gpu_sh" --check
check "nvcc missing: exit 2" equals "$status" 2
check "...says so" contains "$out" "FAILED: nvcc not found"

run_captured gpu env KL_COMPUTE_SANITIZER=/nonexistent/compute-sanitizer "$gpu_sh" --check
check "compute-sanitizer missing: exit 2" equals "$status" 2
check "...says so" contains "$out" "FAILED: compute-sanitizer not found"

run_captured "$gpu_sh" --frobnicate
check "an unknown argument: exit 2" equals "$status" 2

# ---------------------------------------------------------------------------------------------
# --summary over a real ctest run: a passing unit test, a failing memcheck run with a report, an
# expected finding, all through harness/testing/ctest-gpu-env.sh with a two-GPU resource spec.
build=$scratch/build
mkdir -p "$build/perf"
cat >"$build/fake-test.sh" <<'T'
#!/bin/sh
case $1 in
  unit) echo "[  PASSED  ] 12 tests." ;;
  memcheck) echo "========= Invalid __global__ write of size 4 bytes"; echo "========= ERROR SUMMARY: 1 error"; exit 86 ;;
  expect) echo "FOUND: memcheck reported the planted bug" ;;
esac
T
chmod +x "$build/fake-test.sh"
w=$KL_SOURCE_DIR/harness/testing/ctest-gpu-env.sh
cat >"$build/CTestTestfile.cmake" <<CT
add_test(kl.demo.unit "$w" "$build/fake-test.sh" unit)
set_tests_properties(kl.demo.unit PROPERTIES RESOURCE_GROUPS "gpus:1" ENVIRONMENT "KL_CTEST_NAME=kl.demo.unit")
add_test(kl.demo.unit.memcheck "$w" "$build/fake-test.sh" memcheck)
set_tests_properties(kl.demo.unit.memcheck PROPERTIES RESOURCE_GROUPS "gpus:1")
add_test(kl.expect.demo-bug "$w" "$build/fake-test.sh" expect)
set_tests_properties(kl.expect.demo-bug PROPERTIES RESOURCE_GROUPS "gpus:1")
CT
printf '{"version": {"major": 1, "minor": 0}, "local": [{"gpus": [{"id": "0", "slots": 1}, {"id": "1", "slots": 1}]}]}\n' \
  >"$build/spec.json"
(cd "$build" && "$KL_CTEST" --resource-spec-file spec.json -j 2 --output-junit junit-gpu.xml >ci-ctest.log 2>&1) || true
printf '### elementwise\n\n| variant | GB/s |\n| --- | --- |\n| add | 3000 |\n' >"$build/perf/elementwise.md"
printf '{"family": "elementwise"}\n' >"$build/perf/elementwise.json"

: >"$step"
run_captured env GITHUB_STEP_SUMMARY="$step" "$gpu_sh" --summary "$build"
art=$build/ci-artifacts
check "--summary: exit 0" equals "$status" 0
for f in junit-gpu.xml ctest-gpu.log ctest-LastTest.log gpu-map.tsv summary.md perf/round-1/elementwise.json; do
  check "artifact $f" test -s "$art/$f"
done
check "one log per sanitizer run, holding its report" \
  contains "$(cat "$art/sanitizer/kl.demo.unit.memcheck.log" 2>/dev/null)" "Invalid __global__ write"
check "...and no other test's output" lacks "$(cat "$art/sanitizer/kl.demo.unit.memcheck.log" 2>/dev/null)" "PASSED|FOUND"
check "expected findings get their own log too" test -s "$art/sanitizer/kl.expect.demo-bug.log"
check "plain unit tests are not split out" test ! -e "$art/sanitizer/kl.demo.unit.log"
check "the GPU map names every test once, each on GPU 0 or 1" \
  equals "$(cut -f1 "$art/gpu-map.tsv" | sort | tr '\n' ' ')/$(cut -f2 "$art/gpu-map.tsv" | grep -cv '^[01]$')" \
  "kl.demo.unit kl.demo.unit.memcheck kl.expect.demo-bug /0"
summary=$(cat "$art/summary.md")
check "summary: the ctest result line" contains "$summary" '^\*\*67% tests passed, 1 tests failed out of 3\*\*$'
# shellcheck disable=SC2016  # the backquotes are Markdown
check "summary: the failed test and how it failed" contains "$summary" '^\| `kl\.demo\.unit\.memcheck` \| Failed \|$'
check "summary: tests per GPU" contains "$summary" "^### GPU assignment"
check "summary: the perf tables" contains "$summary" "^\| add \| 3000 \|$"
check "summary appended to GITHUB_STEP_SUMMARY" equals "$(cat "$step")" "$summary"
check "summary: a perf JSON that no kernel-lab drew is said, not hidden" \
  contains "$summary" "the HTML report could not be drawn.*report\.log"

# ---------------------------------------------------------------------------------------------
# The whole run, on a scratch project shaped like kernel-lab's (gpu presets, tests through the
# wrapper with RESOURCE_GROUPS, a perf test writing perf/*.md and .json), with the ci/ scripts
# copied in. Covers the normal tier, the deep tier, a failing test and a failing configure.
proj=$scratch/project
mkdir -p "$proj/ci"
cp "$KL_SOURCE_DIR"/ci/gpu.sh "$KL_SOURCE_DIR"/ci/resource-spec.sh "$KL_SOURCE_DIR"/harness/testing/ctest-gpu-env.sh \
  "$KL_SOURCE_DIR"/ci/shard.sh "$KL_SOURCE_DIR"/ci/merge-reports.sh "$proj/ci/"
cat >"$proj/CMakePresets.json" <<'PRESETS'
{
  "version": 6,
  "configurePresets": [{"name": "gpu", "generator": "Ninja", "binaryDir": "${sourceDir}/build/gpu"}],
  "buildPresets": [{"name": "gpu", "configurePreset": "gpu"}],
  "testPresets": [{"name": "gpu", "configurePreset": "gpu",
                   "output": {"outputOnFailure": true, "outputJUnitFile": "${sourceDir}/build/gpu/junit-gpu.xml"},
                   "execution": {"noTestsAction": "error", "jobs": 8}}]
}
PRESETS
cat >"$proj/CMakeLists.txt" <<'CML'
cmake_minimum_required(VERSION 3.25)
project(fake_kernel_lab NONE)
if(DEFINED ENV{FAKE_CONFIGURE_FAIL})
  message(FATAL_ERROR "configure broken on purpose")
endif()
set(KL_CTEST_GPU_SLOTS 2 CACHE STRING "")
set(KL_SANITIZER_RC_PARAMS "small" CACHE STRING "")
set(KL_GPU_RC_DEFAULTS "" CACHE STRING "")
set(KL_TEST_TIMEOUT_SCALE 1 CACHE STRING "")
file(WRITE ${CMAKE_BINARY_DIR}/settings.txt "${KL_SANITIZER_RC_PARAMS}/${KL_TEST_TIMEOUT_SCALE}/${KL_CTEST_GPU_SLOTS}/${KL_GPU_RC_DEFAULTS}")
enable_testing()
set(w ${CMAKE_SOURCE_DIR}/ci/ctest-gpu-env.sh)
set(t ${CMAKE_SOURCE_DIR}/t.sh)
add_test(NAME kl.demo.unit COMMAND ${w} ${t} unit ${CMAKE_BINARY_DIR})
add_test(NAME kl.demo.unit.memcheck COMMAND ${w} ${t} memcheck ${CMAKE_BINARY_DIR})
set_tests_properties(kl.demo.unit kl.demo.unit.memcheck PROPERTIES LABELS gpu RESOURCE_GROUPS "gpus:1")
add_test(NAME kl.perf.demo COMMAND ${w} ${t} perf ${CMAKE_BINARY_DIR})
set_tests_properties(kl.perf.demo PROPERTIES LABELS "gpu;perf" RESOURCE_GROUPS "gpus:${KL_CTEST_GPU_SLOTS}" RUN_SERIAL TRUE)
CML
cat >"$proj/t.sh" <<'T'
#!/bin/sh
build=$2
case $1 in
  unit) echo "RC_PARAMS=${RC_PARAMS-unset}" >"$build/unit-env.txt"; [ -z "${FAKE_FAIL:-}" ] ;;
  memcheck) echo "========= ERROR SUMMARY: 0 errors" ;;
  perf)
    n=$(( $(cat "$build/perf-count" 2>/dev/null || echo 0) + 1 )); echo "$n" >"$build/perf-count"
    mkdir -p "$build/perf"
    printf '### demo (run %s)\n\n| variant | GB/s |\n| --- | --- |\n| add | 3000 |\n' "$n" >"$build/perf/demo.md"
    printf '{"run": %s}\n' "$n" >"$build/perf/demo.json" ;;
esac
T
chmod +x "$proj/t.sh"
# The build's kernel-lab, as far as ci/gpu.sh uses it: `report FILES... --html PAGE --svg DIR`.
mkdir -p "$proj/build/gpu/bench"
cat >"$proj/build/gpu/bench/kernel-lab" <<'KL'
#!/bin/sh
[ "$1" = report ] || exit 2
[ -n "${FAKE_REPORT_FAIL:-}" ] && { echo "kernel-lab: bad report"; exit 2; }
shift
html= svg= files=
while [ $# -gt 0 ]; do
  case $1 in --html) html=$2; shift 2 ;; --svg) svg=$2; shift 2 ;; *) files="$files $1"; shift ;; esac
done
mkdir -p "$svg" && echo "<svg/>" >"$svg/roofline.svg"
echo "<html>report of$files</html>" >"$html"
KL
chmod +x "$proj/build/gpu/bench/kernel-lab"
pbuild=$proj/build/gpu
part=$pbuild/ci-artifacts

: >"$step"
run_captured gpu env -u CUDA_VISIBLE_DEVICES -u KL_CI_DEEP "$proj/ci/gpu.sh"
check "full run: exit 0" equals "$status" 0
psum=$(cat "$part/summary.md" 2>/dev/null || true)
# CTest 4 prints "100% tests passed out of N" when nothing failed; CTest 3.25 adds ", 0 tests failed".
check "full run: all three tests passed" contains "$psum" '^\*\*100% tests passed(, 0 tests failed)? out of 3\*\*$'
check "full run: resource spec for the two GPUs with the build's 2 slots" \
  equals "$(grep -c '"slots": 2' "$part/resource-spec.json" 2>/dev/null)" 2
check "full run: every test got a GPU" equals "$(wc -l <"$part/gpu-map.tsv" | tr -d ' ')" 3
check "full run: JUnit collected" test -s "$part/junit-gpu.xml"
check "full run: perf round 1 collected" test -s "$part/perf/round-1/demo.json"
check "full run: perf table in the summary" contains "$psum" '^### demo \(run 1\)$'
check "full run: configure and build logs kept" test -s "$part/configure.log" -a -f "$part/build.log"
check "full run: environment recorded" contains "$(cat "$part/environment.txt")" "fake nvidia-smi"
check "full run: the summary went to GITHUB_STEP_SUMMARY" equals "$(cat "$step")" "$psum"
check "full run: each step's wall time in the summary" contains "$psum" '^- step times: configure [0-9]+ s, build [0-9]+ s, ctest [0-9]+ s$'
check "...and as each step ends" contains "$out" 'ci/gpu\.sh: ctest took [0-9]+ s'
check "full run: the perf JSON drawn as report.html" contains "$(cat "$part/report.html" 2>/dev/null)" "perf/round-1/demo\.json"
check "...its charts beside it" test -s "$part/charts/roofline.svg"
# shellcheck disable=SC2016  # the backquotes are Markdown
check "...and the summary says where it is" contains "$psum" 'HTML report: `report\.html` in the artifacts'
run_captured gpu env -u CUDA_VISIBLE_DEVICES -u KL_CI_DEEP FAKE_REPORT_FAIL=1 "$proj/ci/gpu.sh"
check "a report that cannot be drawn fails the tier: exit 1" equals "$status" 1
check "...saying so in the summary" contains "$(cat "$part/summary.md")" "the HTML report could not be drawn"
check "full run: property tests keep their own RC_PARAMS" equals "$(cat "$pbuild/unit-env.txt")" "RC_PARAMS=unset"

rm -f "$pbuild/perf-count"
run_captured gpu env -u CUDA_VISIBLE_DEVICES KL_CI_DEEP=1 KL_CI_PERF_ROUNDS=3 "$proj/ci/gpu.sh"
check "deep run: exit 0" equals "$status" 0
check "deep run: RC_PARAMS stays the caller's (unset), so sanitizer runs keep their defaults" \
  equals "$(cat "$pbuild/unit-env.txt")" "RC_PARAMS=unset"
check "deep run: sanitizer and GPU test defaults and timeout scale configured" \
  equals "$(cat "$pbuild/settings.txt")" "max_success=32 max_size=40/4/2/max_success=1000 max_size=200"
check "deep run: perf ran three times, each round kept" \
  equals "$(cat "$part"/perf/round-{1,2,3}/demo.json 2>/dev/null | tr -d '\n ')" '{"run":1}{"run":2}{"run":3}'
check "deep run: a JUnit file per extra perf round" test -s "$part/junit-perf-round-3.xml"
check "deep run: the main JUnit file is the main run's" contains "$(cat "$part/junit-gpu.xml")" "kl\.demo\.unit\.memcheck"
check "deep run: the summary says so" contains "$(cat "$part/summary.md")" "nightly deep.*max_success=1000 max_size=200.*max_success=32 max_size=40.*perf rounds: 3"

run_captured gpu env -u CUDA_VISIBLE_DEVICES -u KL_CI_DEEP "$proj/ci/gpu.sh"
check "a normal run after a deep one: the deep settings are gone" equals "$(cat "$pbuild/settings.txt")" "small/1/2/"

run_captured gpu env -u CUDA_VISIBLE_DEVICES KL_CI_SLOTS_PER_GPU=3 "$proj/ci/gpu.sh"
check "KL_CI_SLOTS_PER_GPU=3: build and spec agree on 3 slots" \
  equals "$(cut -d/ -f3 "$pbuild/settings.txt")/$(grep -c '"slots": 3' "$part/resource-spec.json")" "3/2"

# The tier as two shards, one after the other, then merged: the same three tests in all.
for i in 1 2; do
  run_captured gpu env -u CUDA_VISIBLE_DEVICES -u KL_CI_DEEP "$proj/ci/gpu.sh" --shard "$i/2"
  check "shard $i/2: exit 0" equals "$status" 0 || printf '%s\n' "$out" >&2
  check "...its artifacts under its own name" test -s "$pbuild/ci-artifacts-shard-$i-of-2/junit-gpu.xml"
  check "...its summary says which shard" contains "$(cat "$pbuild/ci-artifacts-shard-$i-of-2/summary.md")" \
    "^## kernel-lab GPU tier, shard $i/2 \([0-9]+ tests\)$"
done
check "the perf test ran in one shard only" \
  equals "$(cat "$pbuild"/ci-artifacts-shard-*-of-2/shard-tests.tsv | grep -c kl.perf.demo)" 1
run_captured env KL_PROGRAM="$pbuild/bench/kernel-lab" "$proj/ci/merge-reports.sh" "$scratch/merged" \
  "$pbuild/ci-artifacts-shard-1-of-2" "$pbuild/ci-artifacts-shard-2-of-2"
check "merged: exit 0" equals "$status" 0 || printf '%s\n' "$out" >&2
check "...as many tests as the unsharded run" contains "$out" '^\*\*100% tests passed, 0 tests failed out of 3\*\*$'
check "...with the perf tier's report" test -s "$scratch/merged/report.html"
run_captured gpu "$proj/ci/gpu.sh" --shard 3/2
check "--shard 3/2: exit 2" equals "$status" 2

run_captured gpu env -u CUDA_VISIBLE_DEVICES FAKE_FAIL=1 "$proj/ci/gpu.sh"
check "a failing test: exit 1" equals "$status" 1
# shellcheck disable=SC2016  # the backquotes are Markdown
check "...listed in the summary" contains "$(cat "$part/summary.md")" '^\| `kl\.demo\.unit` \| Failed \|$'
check "...artifacts still collected" test -s "$part/junit-gpu.xml"

run_captured gpu env -u CUDA_VISIBLE_DEVICES FAKE_CONFIGURE_FAIL=1 "$proj/ci/gpu.sh"
check "a failing configure: exit 1" equals "$status" 1
check "...the summary says which stage failed" contains "$(cat "$part/summary.md")" '^\*\*configure failed\*\*'
check "...and its log is kept" contains "$(cat "$part/configure.log")" "configure broken on purpose"

finish
