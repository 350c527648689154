#!/usr/bin/env bash
# cmake/wgmma_pipeline_guard.sh, the sm_90a rungs' compiler launcher, with the real nvcc: a unit
# whose wgmma pipeline ptxas serialises (tests/support/wgmma_two_shapes.cu, a slice at offset 8)
# fails its compile with the rule named and leaves no object; the same unit with the slice at 0
# compiles as it would without the guard; a compile error stays the compiler's.
# shellcheck source=tests/ci/lib.sh
. "$(dirname "$0")/lib.sh"
: "${KL_CUDA_COMPILER:?set KL_CUDA_COMPILER to nvcc}"
guard=$KL_SOURCE_DIR/cmake/wgmma_pipeline_guard.sh
fixture=$KL_SOURCE_DIR/tests/support/wgmma_two_shapes.cu
compile() {  # compile SLICE OBJECT [EXTRA...]: the fixture for sm_90a through the guard
  local slice=$1 object=$2
  shift 2
  run_captured "$guard" "$KL_CUDA_COMPILER" -O2 -DSLICE="$slice" "$@" --generate-code=arch=compute_90a,code=sm_90a \
    -c "$fixture" -o "$object"
}

compile 8 "$scratch/planted.o"
check "planted (slice at 8): the compile fails" equals "$status" 1
check "planted: the rule and the unit are named" contains "$out" \
  "kernel-lab: ptxas serialised the wgmma pipeline of .*wgmma_two_shapes\.cu \(an sm_90a rung must keep its wgmmas overlapping"
check "planted: ptxas's own words follow" contains "$out" "^  .*C7511.*wgmma\.mma_async instructions are serialized"
check "planted: no object is left for the build to link" test ! -e "$scratch/planted.o"

compile 0 "$scratch/clean.o"
check "clean (slice at 0): the compile succeeds" equals "$status" 0
check "clean: the object is written" test -s "$scratch/clean.o"
check "clean: no complaint" lacks "$out" "kernel-lab: ptxas serialised|serialized"

compile not_a_slice "$scratch/broken.o"
check "a compile error: the compile fails" test "$status" -ne 0
check "a compile error: the compiler's own message is passed through" contains "$out" "not_a_slice"
check "a compile error: not blamed on the pipeline" lacks "$out" "kernel-lab: ptxas serialised"

run_captured "$guard"
check "no compiler given: usage, exit 2" equals "$status" 2
check "no compiler given: says how to call it" contains "$out" "usage: wgmma_pipeline_guard.sh COMPILER ARGS"
finish
