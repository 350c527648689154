# kl_add_lab: a project's whole harness, program and tiers, from the families it declared with
# kl_family() (cmake/KernelLabFamilies.cmake). What a family states once (its variants, shapes,
# oracle, planted findings: the kit's FamilySpec, harness/cli/kit.hpp) the tests derive from.
#
# kl_add_lab(PROGRAM <program> LIBRARIES <lib>... [PREFIX <name>] [TESTS <source>...]
#            [GATES <file>] [PLANTED <finding>:<tool>...])
#   <program>                      the program: list, run, bench, sanitize, expect, repro, help
#   <name>                         the tests' prefix: PREFIX, by default the first family declared
#   host tier (label host):
#     <name>.host                  the derived host tests (harness/derived/derived_host_tests.cpp):
#                                  rules, refusals by the program, registrations against CMake
#     <name>.cli.no_gpu_exits_2    `<name> bench` without a GPU: exit 2, saying so
#   GPU tier, each also under memcheck, racecheck, synccheck and initcheck:
#     <name>.unit                  the derived unit shapes and planted findings, and TESTS
#     <name>.property              the derived oracle property, and TESTS' *Property* suites
#                                  (clean variants only: planted suites belong in <name>.unit)
#   Each PLANTED finding (a planted variant's sanitizer finding, named as in its registry entry):
#     kl.expect.<finding> and .fix_is_silent (kl_add_planted_finding); the Planted* suites are
#     left out of <name>.unit.<tool>, and <name>.unit.<tool>.exclusion_earned proves <tool> still
#     reports there the pattern the finding declares.
#   GATES: <name>.gates.consistency, one perf test <name>.perf.<family> per benched family, and
#     <name>.perf.gate_bites: the file's first gate made impossible must fail the bench.
# TESTS are GoogleTest sources (the family's hand-checked examples); suites named *Property* run
# in <name>.property, the others in <name>.unit.
function(kl_add_lab)
  cmake_parse_arguments(ARG "" "PROGRAM;PREFIX;GATES" "LIBRARIES;TESTS;PLANTED" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS OR NOT ARG_PROGRAM OR NOT ARG_LIBRARIES)
    message(FATAL_ERROR "kl_add_lab: PROGRAM and LIBRARIES are required (unknown: ${ARG_UNPARSED_ARGUMENTS})")
  endif()
  kl_declared_families(families)
  if(NOT families)
    message(FATAL_ERROR "kl_add_lab(${ARG_PROGRAM}): no families (declare them with kl_family first)")
  endif()
  list(GET families 0 first_family)
  set(program ${ARG_PROGRAM})
  set(p ${first_family})
  if(ARG_PREFIX)
    set(p ${ARG_PREFIX})
  endif()

  kl_add_family_set(NAME ${p}_families LIBRARIES ${ARG_LIBRARIES})
  add_executable(${program})
  target_link_libraries(${program} PRIVATE KernelLab::cli_main ${p}_families)
  set(KL_CLI_TARGET ${program})
  set(KL_CLI_TARGET ${program} PARENT_SCOPE)

  # Host tier.
  add_executable(${p}_host_tests)
  target_link_libraries(${p}_host_tests PRIVATE KernelLab::derived_host_tests ${p}_families)
  target_compile_definitions(${p}_host_tests PRIVATE KL_CLI_PROGRAM_NAME="${program}")
  kl_add_host_test(NAME ${p}.host TARGET ${p}_host_tests)
  set_property(TEST ${p}.host APPEND PROPERTY ENVIRONMENT
    "KL_PLANTED_FINDINGS_FILE=${PROJECT_BINARY_DIR}/planted_findings.txt"
    "KL_BENCH_FAMILIES_FILE=${PROJECT_BINARY_DIR}/bench_families.txt")
  add_test(NAME ${p}.cli.no_gpu_exits_2
    COMMAND ${KL_EXPECT_EXIT} 2 "no usable CUDA GPU" $<TARGET_FILE:${program}> bench --family ${first_family})
  set_tests_properties(${p}.cli.no_gpu_exits_2 PROPERTIES LABELS host TIMEOUT 60 ENVIRONMENT "CUDA_VISIBLE_DEVICES=")

  # GPU tier: one binary, two tests.
  add_executable(${p}_gpu_tests ${ARG_TESTS})
  target_link_libraries(${p}_gpu_tests PRIVATE KernelLab::derived_gpu_tests ${p}_families)
  target_compile_definitions(${p}_gpu_tests PRIVATE KL_CLI_PROGRAM_NAME="${program}")
  kl_gpu_test_binary_in_all(${p}_gpu_tests)  # registered always; built unless KL_BUILD_GPU_TEST_BINARIES is OFF
  set(planted_args "")
  set(findings "")
  foreach(entry IN LISTS ARG_PLANTED)
    if(NOT entry MATCHES "^([a-z0-9_-]+):(memcheck|racecheck|synccheck|initcheck)$")
      message(FATAL_ERROR "kl_add_lab(${program}): PLANTED '${entry}' is not <finding>:<tool> (a compute-sanitizer tool)")
    endif()
    string(TOUPPER ${CMAKE_MATCH_2} upper)
    list(APPEND planted_args SKIP_UNDER_${upper} "Planted*"
      SKIP_REASON_${upper} "${CMAKE_MATCH_2} reports the planted variants (asserted by kl.expect.${CMAKE_MATCH_1})"
      PROOF_FINDING_${upper} ${CMAKE_MATCH_1})
    list(APPEND findings ${CMAKE_MATCH_1} ${CMAKE_MATCH_2})
  endforeach()
  kl_add_gpu_test(NAME ${p}.unit TARGET ${p}_gpu_tests FILTER "-*Property*" ${planted_args})
  kl_add_gpu_test(NAME ${p}.property TARGET ${p}_gpu_tests FILTER "*Property*" LABELS property)
  while(findings)
    list(POP_FRONT findings finding tool)
    kl_add_planted_finding(NAME ${finding} TOOL ${tool})
  endwhile()
  kl_finalize_planted_findings()

  # Perf tier.
  if(ARG_GATES)
    get_filename_component(gates ${ARG_GATES} ABSOLUTE)
    kl_add_family_perf_tests(PREFIX ${p} GATES ${gates} OUTPUT_DIR ${PROJECT_BINARY_DIR}/perf)
    file(STRINGS ${gates} first_gate REGEX "^[ \t]*min_ratio[ \t]+[^ \t]+[ \t]+>=" LIMIT_COUNT 1)
    if(NOT first_gate MATCHES "min_ratio[ \t]+([^ \t]+)[ \t]+>=")
      message(FATAL_ERROR "kl_add_lab(${program}): ${gates} has no `min_ratio <key> >= <x>` gate to prove able to fail")
    endif()
    set(key ${CMAKE_MATCH_1})
    string(REGEX REPLACE "\\." "\\\\." key_regex "${key}")
    set(impossible ${PROJECT_BINARY_DIR}/perf/impossible_gate.conf)
    file(WRITE ${impossible} "[default]\nmin_ratio ${key} >= 1000\n")
    string(REGEX MATCH "^[^.]+" key_family "${key}")
    kl_add_perf_test(NAME ${p}.perf.gate_bites
      ARGS ${KL_EXPECT_EXIT} 1 "FAIL min_ratio\\(${key_regex}\\).*< threshold 1000"
           $<TARGET_FILE:${program}> bench --family ${key_family} --gates ${impossible})
  endif()
endfunction()

