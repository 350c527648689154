#!/usr/bin/env bash
# examples/own-kernel against the installed package: `cmake --install` of this build tree into a
# scratch prefix, then the example configured with find_package(KernelLab), built, and its host
# tier run. Also checks that the example registers its whole GPU tier: unit tests and properties with their four sanitizer runs,
# the planted bug's expected finding and its fix check, and the perf test.
# shellcheck source=tests/ci/lib.sh
. "$(dirname "$0")/lib.sh"
: "${KL_BUILD_DIR:?set KL_BUILD_DIR to the kernel-lab build tree}"
: "${KL_CMAKE:=cmake}"
: "${KL_CTEST:=ctest}"

# The example's price of entry: its C++ (kernels, oracles, the declaration, its own tests) and its
# CMake, counted without blank and comment lines.
code_lines() {  # code_lines COMMENT-PREFIX FILE...
  local comment=$1
  shift
  cat "$@" | grep -v '^[[:space:]]*$' | grep -cv "^[[:space:]]*$comment" || true
}
example=$KL_SOURCE_DIR/examples/own-kernel
mapfile -t cxx_files < <(find "$example" -path "$example/build" -prune -o -type f \
  \( -name '*.cu' -o -name '*.cpp' -o -name '*.hpp' -o -name '*.cuh' \) -print)
cxx_lines=$(code_lines '//' "${cxx_files[@]}")
check "the example's C++ is at most 80 lines (it is $cxx_lines)" test "$cxx_lines" -le 80
cmake_lines=$(code_lines '#' "$example/CMakeLists.txt")
check "the example's CMake is at most 25 lines (it is $cmake_lines)" test "$cmake_lines" -le 25

prefix=$scratch/prefix
build=$scratch/own-kernel
run_captured "$KL_CMAKE" --install "$KL_BUILD_DIR" --prefix "$prefix"
check "cmake --install succeeds" equals "$status" 0 || printf '%s\n' "$out" >&2
check "the package config is installed" test -f "$prefix/lib/cmake/KernelLab/KernelLabConfig.cmake"
check "the harness headers are installed" test -f "$prefix/include/kernel_lab/cli/family.hpp"

run_captured "$KL_CMAKE" -S "$KL_SOURCE_DIR/examples/own-kernel" -B "$build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$prefix" -DKL_PRESET=host ${KL_CUDA_COMPILER:+-DCMAKE_CUDA_COMPILER="$KL_CUDA_COMPILER"} \
  ${KL_CXX_COMPILER:+-DCMAKE_CXX_COMPILER="$KL_CXX_COMPILER"}
check "the example configures against the installed package" equals "$status" 0 || printf '%s\n' "$out" >&2
run_captured "$KL_CMAKE" --build "$build"
check "the example builds" equals "$status" 0 || printf '%s\n' "$out" >&2
check "the example builds without warnings" lacks "$out" "warning"

run_captured "$KL_CTEST" --test-dir "$build" -N
listed=$out
for t in starter.host starter.cli.no_gpu_exits_2 starter.unit starter.unit.memcheck starter.unit.racecheck \
  starter.unit.synccheck starter.unit.initcheck starter.unit.memcheck.exclusion_earned starter.property \
  starter.property.memcheck starter.property.racecheck starter.property.synccheck starter.property.initcheck \
  kl.expect.memcheck-saxpy-off-by-one kl.expect.memcheck-saxpy-off-by-one.fix_is_silent \
  starter.gates.consistency starter.perf.starter starter.perf.gate_bites; do
  check "the example registers $t" contains "$listed" "Test +#[0-9]+: ${t//./\\.}$"
done

run_captured "$KL_CTEST" --test-dir "$build" -L '^host$' --output-on-failure
check "the example's host tier passes" contains "$out" "100% tests passed(, 0 tests failed)? out of 3"
printf '%s\n' "$out"

# Its program checks gates files like kernel-lab does: a key no bench case produces is refused.
printf '[default]\nmin_ratio starter.saxpy >= 0.5\nmin_ratio starter.nosuch >= 0.5\n' >"$scratch/typo.conf"
run_captured "$build/starter-lab" gates "$scratch/typo.conf"
check "starter-lab gates refuses a key no bench case produces" equals "$status" 2
check "and names the line and the key" contains "$out" "typo.conf:3: min_ratio\(starter\.nosuch\) names starter\.nosuch"

# The same project with the harness built from this source tree (add_subdirectory, as
# FetchContent does it): the same tests, and none of the lab's own. What its host tier runs is
# built (KL_BUILD_GPU_TEST_BINARIES OFF, as host-asan builds): the GPU test binaries compiled
# against the package above, and building them again here cost a third of this test on CI.
sub=$scratch/own-kernel-subdir
run_captured "$KL_CMAKE" -S "$KL_SOURCE_DIR/examples/own-kernel" -B "$sub" -G Ninja \
  -DKERNEL_LAB_SOURCE_DIR="$KL_SOURCE_DIR" -DKL_PRESET=host -DKL_BUILD_GPU_TEST_BINARIES=OFF ${KL_CUDA_COMPILER:+-DCMAKE_CUDA_COMPILER="$KL_CUDA_COMPILER"} \
  ${KL_CXX_COMPILER:+-DCMAKE_CXX_COMPILER="$KL_CXX_COMPILER"}
check "the example configures with kernel-lab as a subdirectory" equals "$status" 0 || printf '%s\n' "$out" >&2
run_captured "$KL_CMAKE" --build "$sub"
check "the example builds with kernel-lab as a subdirectory" equals "$status" 0 || printf '%s\n' "$out" >&2
run_captured "$KL_CTEST" --test-dir "$sub" -N
check "the subdirectory build registers the example's tests" equals "$(printf '%s\n' "$out" | grep -c 'Test +#')" \
  "$(printf '%s\n' "$listed" | grep -c 'Test +#')"
check "and none of the lab's" lacks "$out" "Test +#[0-9]+: kl\\.(elementwise|matmul|cli|ci)"
run_captured "$KL_CTEST" --test-dir "$sub" -L '^host$' --output-on-failure
check "its host tier passes" contains "$out" "100% tests passed(, 0 tests failed)? out of 3"
finish
