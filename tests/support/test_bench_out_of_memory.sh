#!/usr/bin/env bash
# `kernel-lab bench` on a GPU with little memory left: another process (kl_hold_device_memory)
# holds all but KL_KEEP_FREE_MIB of it, and the sweep of basics.fill_vectorized (no inputs to
# draw, so a size that does not fit fails at once) must list the sizes that do not fit as not
# benchmarked (CUDA's words and the memory the GPU had), measure the sizes that do, and exit 0. Before this rule the first failed allocation ended the bench
# (exit 1, "out of memory"), so this test fails on a bench that lacks it.
# shellcheck source=tests/ci/lib.sh
. "$KL_SOURCE_DIR/tests/ci/lib.sh"
: "${KL_PROGRAM:?the kernel-lab to run}" "${KL_HOLD:?kl_hold_device_memory}"
json=$scratch/bench.json

run_captured "$KL_HOLD" "${KL_KEEP_FREE_MIB:-1536}" -- \
  "$KL_PROGRAM" bench --family basics --variant fill_vectorized --sweep --reps 3 --json "$json"
printf '%s\n' "$out"
check "the bench exits 0 with sizes left out" equals "$status" 0
check "the memory was held" contains "$out" '^kl_hold_device_memory: holding [1-9][0-9]* allocation'
check "the largest size is listed, with the rule and CUDA's words" contains "$out" \
  "^not benchmarked basics\.fill_vectorized\.n1g: does not fit in this GPU's memory \([0-9.]+ of [0-9.]+ GiB free .*out of memory"
check "the small sizes are measured" contains "$out" '^basics\.fill_vectorized\.n4k: [0-9.]+ GB/s'
check "the middle sizes are measured" contains "$out" '^basics\.fill_vectorized\.n1m: [0-9.]+ GB/s'
check "the report lists the size it left out" contains "$(cat "$json")" '"what": "basics\.fill_vectorized\.n1g", "reason": "does not fit'
check "and gives no result for it" lacks "$(grep -o '"key": "[^"]*"' "$json")" 'basics\.fill_vectorized\.n1g'
finish
