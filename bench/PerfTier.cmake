# The perf tier: `kernel-lab bench` per family against bench/gates.conf (labels gpu and perf,
# run serially: a timing shares the GPU with nothing), one test proving a gate bites, the
# `lessons` target that regenerates docs/LESSONS.md, and profile-<family> targets (ncu).
#
# Each family's reports land in build/<preset>/perf/<family>.{json,md,tsv}; CI collects them.
# The ctest preset `host` selects label ^host$ only, so it never runs these; `gpu` runs all.

set(KL_GATES_FILE ${CMAKE_CURRENT_SOURCE_DIR}/gates.conf)
set(KL_PERF_DIR ${PROJECT_BINARY_DIR}/perf)
# kl.perf.<family> for every family declared kl_family(<name> BENCHED); kl.bench.consistency
# (host) fails when that list and the family objects with bench cases disagree.
kl_add_family_perf_tests(PREFIX kl GATES ${KL_GATES_FILE} OUTPUT_DIR ${KL_PERF_DIR})

# A gate must be able to fail: one threshold no GPU can meet, on one cheap variant. The test
# passes only if the bench exits 1 and its message names the gate, the measured ratio and the
# threshold.
kl_add_perf_test(NAME kl.perf.gate_bites
  ARGS ${KL_EXPECT_EXIT} 1
       "FAIL min_ratio\\(imatmul\\.tiled_16\\).*ratio to int32_issue_bound [0-9.]+ < threshold 1000"
       $<TARGET_FILE:kernel-lab> bench --family imatmul --variant tiled_16
       --gates ${CMAKE_CURRENT_SOURCE_DIR}/testdata/impossible_gate.conf)

# docs/LESSONS.md is generated, never typed: the whole bench with the gates and the size sweeps, on
# a GPU, then the lab's `lessons` command on its report.
add_custom_target(lessons
  COMMAND $<TARGET_FILE:kernel-lab> bench --gates ${KL_GATES_FILE} --sweep
          --json ${KL_PERF_DIR}/all.json --markdown ${KL_PERF_DIR}/all.md --tsv ${KL_PERF_DIR}/all.tsv
  COMMAND $<TARGET_FILE:kernel-lab> lessons --gates ${KL_GATES_FILE} --out ${PROJECT_SOURCE_DIR}/docs/LESSONS.md
          ${KL_PERF_DIR}/all.json
  DEPENDS kernel-lab
  USES_TERMINAL
  COMMENT "kernel-lab bench (all families) -> docs/LESSONS.md")

# profile-<family>: Nsight Compute on the variants a seed profiled, with the seed's metrics,
# printed as seed 000's comparison table (bench/profile.sh). Fails with a clear message without ncu.
# profile-sgemm is the SGEMM ladder beyond the seeds alone, profile-tensor the tensor-core ladder;
# profile-matmul prints all three tables.
foreach(family matmul reduction sgemm tensor)
  set(_kl_profile_commands COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/profile.sh $<TARGET_FILE:kernel-lab> ${family})
  if(family STREQUAL "matmul")
    list(APPEND _kl_profile_commands COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/profile.sh $<TARGET_FILE:kernel-lab> sgemm
                                     COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/profile.sh $<TARGET_FILE:kernel-lab> tensor)
  endif()
  add_custom_target(profile-${family}
    ${_kl_profile_commands}
    DEPENDS kernel-lab
    USES_TERMINAL
    COMMENT "ncu --clock-control none on ${family}'s profiled variants")
endforeach()
