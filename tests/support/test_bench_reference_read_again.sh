#!/usr/bin/env bash
# `kernel-lab bench` reads every reference it measured once more before the gates and the report
# (harness/core/reference_readings.hpp): one slow reading of a library would make every ratio
# read against it too high. Here reduction.warp_shuffle is read against CUB: the log must say
# CUB was read again and name its readings, and the report must give its case and two readings
# or three. A bench that reads a reference once fails every check below.
# shellcheck source=tests/ci/lib.sh
. "$KL_SOURCE_DIR/tests/ci/lib.sh"
: "${KL_PROGRAM:?the kernel-lab to run}"
json=$scratch/bench.json

run_captured "$KL_PROGRAM" bench --family reduction --variant warp_shuffle --reps 3 --json "$json"
printf '%s\n' "$out"
check "the bench exits 0" equals "$status" 0
check "the log names CUB's readings" contains "$out" \
  '^reference cub_sum\.float read again: [0-9.]+ GB/s, the fastest of [0-9.]+(, [0-9.]+)? and [0-9.]+'
check "the report gives CUB's case and its readings" contains "$(cat "$json")" \
  '"name": "cub_sum\.float", .*"reference": "reduction\.cub_sum\.float", "readings": \[[0-9.e+]+, [0-9.e+]+(, [0-9.e+]+)?\]'
finish
