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
# expected finding, all through ci/ctest-gpu-env.sh with a two-GPU resource spec.
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
w=$KL_SOURCE_DIR/ci/ctest-gpu-env.sh
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

finish
