# Test registration for kernel-lab.
#
# Tiers are ctest labels: host (no GPU), gpu, property, sanitizer + <tool>, perf, slow.
# `ctest --preset host` selects label host; `ctest --preset gpu` runs everything.

set(KL_SANITIZER_TOOLS memcheck racecheck synccheck initcheck)

# Environment of every sanitizer run: properties and unit tests shrink their cases
# (KL_SANITIZER_SMALL, read by kl/test_env.hpp) and RapidCheck runs fewer of them.
# ci/gpu.sh raises KL_SANITIZER_RC_PARAMS for the nightly deep tier.
set(KL_SANITIZER_RC_PARAMS "max_success=8 max_size=40" CACHE STRING
    "RC_PARAMS of every test run under compute-sanitizer")
set(KL_SANITIZER_ENV "KL_SANITIZER_SMALL=1" "RC_PARAMS=${KL_SANITIZER_RC_PARAMS}")

# Every GPU test's timeout is multiplied by this (the nightly deep tier runs far more cases).
set(KL_TEST_TIMEOUT_SCALE 1 CACHE STRING "Factor applied to the timeout of every GPU test")

# Spreading GPU tests over several GPUs (ci/gpu.sh, ci/resource-spec.sh):
# every GPU test is started through KL_GPU_LAUNCHER and declares CTest RESOURCE_GROUPS. With
# `ctest --resource-spec-file SPEC`, where SPEC gives each GPU KL_CTEST_GPU_SLOTS slots, ctest
# allocates a GPU to each test and the launcher exports it as CUDA_VISIBLE_DEVICES. Without a spec
# file ctest allocates nothing, the launcher changes nothing, and every test sees every GPU.
set(KL_GPU_LAUNCHER "${CMAKE_CURRENT_LIST_DIR}/../ci/ctest-gpu-env.sh")
cmake_path(NORMAL_PATH KL_GPU_LAUNCHER)
set(KL_CTEST_GPU_SLOTS 8 CACHE STRING
    "GPU tests that may share one GPU under a ctest resource spec (a perf test takes all of them)")

# kl_gpu_resources(<test>... [WHOLE_GPU])
# Declares what the tests need of a GPU: one slot of one GPU by default; WHOLE_GPU takes every
# slot of one GPU (nothing else runs on it) and makes the test RUN_SERIAL, as timing needs.
# Each test's COMMAND must start with ${KL_GPU_LAUNCHER}, which turns the allocation into
# CUDA_VISIBLE_DEVICES; the host test kl.ci.gpu_tests_declare_resources checks both for every
# test labelled gpu. For a perf test:
#   add_test(NAME kl.perf.x COMMAND ${KL_GPU_LAUNCHER} $<TARGET_FILE:kernel-lab> bench ...)
#   kl_gpu_resources(kl.perf.x WHOLE_GPU)
function(kl_gpu_resources)
  cmake_parse_arguments(ARG "WHOLE_GPU" "" "" ${ARGN})
  if(NOT ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "kl_gpu_resources: name at least one test")
  endif()
  if(ARG_WHOLE_GPU)
    set_tests_properties(${ARG_UNPARSED_ARGUMENTS} PROPERTIES
      RESOURCE_GROUPS "gpus:${KL_CTEST_GPU_SLOTS}" RUN_SERIAL TRUE)
  else()
    set_tests_properties(${ARG_UNPARSED_ARGUMENTS} PROPERTIES RESOURCE_GROUPS "gpus:1")
  endif()
endfunction()

# The gtest filter excludes tests of planted or flawed variants (suite names containing Planted
# or Flawed) from the clean sanitizer sweep: their findings are asserted by the
# expected-finding tests instead.
# (kl_add_gpu_test builds it as "--gtest_filter=<FILTER>-*Planted*:*Flawed*[:skipped]".)

function(_kl_common_test_properties name timeout labels)
  set_tests_properties(${name} PROPERTIES
    LABELS "${labels}"
    TIMEOUT ${timeout}
    ENVIRONMENT "KL_CTEST_NAME=${name}")
endfunction()

# Sets OUT to GIVEN seconds, or DEFAULT when GIVEN is empty, times KL_TEST_TIMEOUT_SCALE: the one
# place a GPU test's timeout is scaled (e.g. -DKL_TEST_TIMEOUT_SCALE=3 on a slower GPU).
function(_kl_scaled_timeout out given default)
  if(NOT given)
    set(given ${default})
  endif()
  math(EXPR scaled "${given} * ${KL_TEST_TIMEOUT_SCALE}")
  set(${out} ${scaled} PARENT_SCOPE)
endfunction()

# kl_add_host_test(NAME n TARGET t [LABELS ...] [TIMEOUT s] [ARGS ...])
# A test that needs no GPU: label host.
function(kl_add_host_test)
  cmake_parse_arguments(ARG "" "NAME;TARGET;TIMEOUT" "LABELS;ARGS" ${ARGN})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 120)
  endif()
  add_test(NAME ${ARG_NAME} COMMAND $<TARGET_FILE:${ARG_TARGET}> ${ARG_ARGS})
  _kl_common_test_properties(${ARG_NAME} ${ARG_TIMEOUT} "host;${ARG_LABELS}")
endfunction()

# kl_add_gpu_test(NAME n TARGET t [LABELS ...] [TIMEOUT s] [ARGS ...] [NO_SANITIZERS]
#                 [FILTER gtest-pattern] [SKIP_UNDER_<TOOL> pattern... SKIP_REASON text]
#                 [ONLY_SANITIZERS tool... WHY "reason"])
# A GPU test binary, plus one run under each compute-sanitizer tool (n.memcheck, ...)
# in small-case mode, with tests of planted and flawed variants filtered out.
# FILTER runs only the matching gtests (one case per ctest entry, own process); the sanitizer
# runs keep it and subtract the planted/flawed suites from it.
# SKIP_UNDER_<TOOL> (MEMCHECK, RACECHECK, SYNCCHECK, INITCHECK) also subtracts patterns from that
# one tool's run, for a known false report of the tool; SKIP_REASON is required with it and is
# printed at configure time, so the exclusion is visible rather than silent.
# ONLY_SANITIZERS registers just the tools named (for code a tool cannot check, e.g. dynamic
# parallelism): the others are not registered at all (never run-and-passed), and WHY is printed.
function(kl_add_gpu_test)
  set(skip_keywords)
  foreach(tool IN LISTS KL_SANITIZER_TOOLS)
    string(TOUPPER ${tool} upper)
    list(APPEND skip_keywords SKIP_UNDER_${upper})
  endforeach()
  cmake_parse_arguments(ARG "NO_SANITIZERS" "NAME;TARGET;TIMEOUT;FILTER;SKIP_REASON;WHY"
                        "LABELS;ARGS;ONLY_SANITIZERS;${skip_keywords}" ${ARGN})
  _kl_scaled_timeout(ARG_TIMEOUT "${ARG_TIMEOUT}" 300)
  set(run_args ${ARG_ARGS})
  if(ARG_FILTER)
    list(APPEND run_args "--gtest_filter=${ARG_FILTER}")
  endif()
  add_test(NAME ${ARG_NAME} COMMAND ${KL_GPU_LAUNCHER} $<TARGET_FILE:${ARG_TARGET}> ${run_args})
  _kl_common_test_properties(${ARG_NAME} ${ARG_TIMEOUT} "gpu;${ARG_LABELS}")
  kl_gpu_resources(${ARG_NAME})
  if(ARG_NO_SANITIZERS)
    return()
  endif()
  set(tools ${KL_SANITIZER_TOOLS})
  if(ARG_ONLY_SANITIZERS)
    if(NOT ARG_WHY)
      message(FATAL_ERROR "kl_add_gpu_test(${ARG_NAME}): ONLY_SANITIZERS needs WHY")
    endif()
    set(tools ${ARG_ONLY_SANITIZERS})
    set(left_out ${KL_SANITIZER_TOOLS})
    list(REMOVE_ITEM left_out ${tools})
    string(REPLACE ";" ", " left_out_text "${left_out}")
    message(STATUS "kernel-lab: ${ARG_NAME}: no ${left_out_text} run registered: ${ARG_WHY}")
  endif()
  _kl_scaled_timeout(sanitizer_timeout "" 900)
  foreach(tool IN LISTS tools)
    string(TOUPPER ${tool} upper)
    set(exclude "*Planted*:*Flawed*")
    if(ARG_SKIP_UNDER_${upper})
      if(NOT ARG_SKIP_REASON)
        message(FATAL_ERROR "kl_add_gpu_test(${ARG_NAME}): SKIP_UNDER_${upper} needs a SKIP_REASON")
      endif()
      list(JOIN ARG_SKIP_UNDER_${upper} ":" skipped)
      string(APPEND exclude ":${skipped}")
      message(STATUS "kernel-lab: ${ARG_NAME}.${tool} leaves out ${skipped}: ${ARG_SKIP_REASON}")
    endif()
    set(test_name ${ARG_NAME}.${tool})
    add_test(NAME ${test_name}
      COMMAND ${KL_GPU_LAUNCHER} $<TARGET_FILE:kernel-lab> sanitize --tool ${tool} --
              $<TARGET_FILE:${ARG_TARGET}> ${ARG_ARGS} "--gtest_filter=${ARG_FILTER}-${exclude}")
    set_tests_properties(${test_name} PROPERTIES
      LABELS "gpu;sanitizer;${tool};${ARG_LABELS}"
      TIMEOUT ${sanitizer_timeout}
      ENVIRONMENT "KL_CTEST_NAME=${test_name};${KL_SANITIZER_ENV}")
    kl_gpu_resources(${test_name})
  endforeach()
endfunction()

# kl_add_slow_property_test(NAME n TARGET t [FILTER gtest-pattern] [TIMEOUT s])
# The slow tier of a property binary: the same binary with KL_PROPERTY_TIER=slow, under which
# generators draw the large shapes (kl/test_env.hpp) and each property runs
# kl::prop::slow_tier_cases cases unless RC_PARAMS sets max_success. Labels gpu, property, slow,
# so `ctest --preset gpu` runs it and `-LE slow` leaves it out. No sanitizer runs: the shapes
# are far too large for the tools.
function(kl_add_slow_property_test)
  cmake_parse_arguments(ARG "" "NAME;TARGET;FILTER;TIMEOUT" "" ${ARGN})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 900)
  endif()
  kl_add_gpu_test(NAME ${ARG_NAME} TARGET ${ARG_TARGET} FILTER "${ARG_FILTER}" TIMEOUT ${ARG_TIMEOUT}
                  LABELS "property;slow" NO_SANITIZERS)
  set_property(TEST ${ARG_NAME} APPEND PROPERTY ENVIRONMENT "KL_PROPERTY_TIER=slow")
endfunction()

# kl_add_planted_finding(NAME repro-name TOOL tool)
# For a planted bug declared in a family registry (kl::ExpectedFinding::repro == NAME):
#  - kl.expect.NAME: passes only if TOOL reports the registered pattern on the planted case;
#    fails if the tool stays silent or cannot be found.
#  - kl.expect.NAME.fix_is_silent: the same check pointed at the variant that fixes the bug
#    must report silence, proving the checker can fail.
#  - target repro-NAME: runs the tool on the planted case and prints its report.
# The host test kl.registry.consistency fails if this list and the registry disagree.
function(kl_add_planted_finding)
  cmake_parse_arguments(ARG "" "NAME;TOOL;TIMEOUT" "" ${ARGN})
  _kl_scaled_timeout(ARG_TIMEOUT "${ARG_TIMEOUT}" 300)
  set(expect kl.expect.${ARG_NAME})
  add_test(NAME ${expect} COMMAND ${KL_GPU_LAUNCHER} $<TARGET_FILE:kernel-lab> expect ${ARG_NAME})
  _kl_common_test_properties(${expect} ${ARG_TIMEOUT} "gpu;sanitizer;${ARG_TOOL};expected-finding")

  add_test(NAME ${expect}.fix_is_silent
    COMMAND ${KL_GPU_LAUNCHER} $<TARGET_FILE:kernel-lab> expect ${ARG_NAME} --against-fix)
  _kl_common_test_properties(${expect}.fix_is_silent ${ARG_TIMEOUT}
    "gpu;sanitizer;${ARG_TOOL};expected-finding")
  set_tests_properties(${expect}.fix_is_silent PROPERTIES
    PASS_REGULAR_EXPRESSION "checker can fail: ${ARG_TOOL} stayed silent")
  kl_gpu_resources(${expect} ${expect}.fix_is_silent)

  add_custom_target(repro-${ARG_NAME}
    COMMAND $<TARGET_FILE:kernel-lab> repro ${ARG_NAME}
    DEPENDS kernel-lab
    USES_TERMINAL
    COMMENT "compute-sanitizer ${ARG_TOOL} on planted bug ${ARG_NAME}")
  set_property(GLOBAL APPEND PROPERTY KL_PLANTED_FINDINGS "${ARG_NAME}:${ARG_TOOL}")
endfunction()

# Writes the CMake-side list of planted findings where the registry consistency test reads it.
function(kl_finalize_planted_findings)
  get_property(findings GLOBAL PROPERTY KL_PLANTED_FINDINGS)
  list(SORT findings)
  string(REPLACE ";" "\n" lines "${findings}")
  file(WRITE ${PROJECT_BINARY_DIR}/planted_findings.txt "${lines}\n")
endfunction()
