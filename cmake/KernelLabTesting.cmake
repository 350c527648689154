# Test registration for kernel-lab, and for any project that puts its kernels under the harness
# (find_package(KernelLab) includes this file).
#
# Sanitizer runs, planted findings and perf tests drive the project's harness program (the
# `kernel-lab` of this repository; a project's own, made with kl_cli_main and its family set):
# KL_CLI_TARGET names its target.
if(NOT DEFINED KL_CLI_TARGET)
  set(KL_CLI_TARGET kernel-lab)
endif()
# Helper scripts: beside this file's ci/ and tests/support/ in the source tree; an installed
# package sets KL_SCRIPT_DIR to where it installed them.
# What the functions below read is kept in the cache (INTERNAL), so they also work when called
# from a project that added kernel-lab with add_subdirectory or FetchContent.
if(NOT DEFINED KL_SCRIPT_DIR)
  set(_kl_expect_exit "${CMAKE_CURRENT_LIST_DIR}/../harness/testing/expect_exit.sh")
  set(_kl_gpu_launcher "${CMAKE_CURRENT_LIST_DIR}/../harness/testing/ctest-gpu-env.sh")
else()
  set(_kl_expect_exit "${KL_SCRIPT_DIR}/expect_exit.sh")
  set(_kl_gpu_launcher "${KL_SCRIPT_DIR}/ctest-gpu-env.sh")
endif()
cmake_path(NORMAL_PATH _kl_expect_exit)
cmake_path(NORMAL_PATH _kl_gpu_launcher)
set(KL_EXPECT_EXIT "${_kl_expect_exit}" CACHE INTERNAL "expect_exit.sh: passes if a command exits with a code and prints a pattern")

# Tiers are ctest labels: host (no GPU), gpu, property, sanitizer + <tool>, perf, slow.
# `ctest --preset host` selects label host; `ctest --preset gpu` runs everything.

set(KL_SANITIZER_TOOLS memcheck racecheck synccheck initcheck CACHE INTERNAL "compute-sanitizer tools of every GPU test")

# RapidCheck parameters reach a test in two layers (kl::prop::tier_params(), property.hpp):
# KL_RC_DEFAULTS, the registered test's defaults, set here in its ctest ENVIRONMENT; and RC_PARAMS,
# the user's, whose every key wins. No test sets RC_PARAMS (kl.ci.no_test_sets_rc_params checks),
# so a user's RC_PARAMS="reproduce=..." reaches every run, sanitizer runs included.
#
# Defaults of every sanitizer run: properties and unit tests shrink their cases (KL_SANITIZER_SMALL,
# read by kl/test_env.hpp) and RapidCheck runs fewer of them. ci/gpu.sh raises it for the nightly
# deep tier (-DKL_SANITIZER_RC_PARAMS=...; the name predates KL_RC_DEFAULTS and is kept for it).
set(KL_SANITIZER_RC_PARAMS "max_success=8 max_size=40" CACHE STRING
    "RapidCheck defaults (KL_RC_DEFAULTS) of every test run under compute-sanitizer; RC_PARAMS overrides them key by key")
set(KL_SANITIZER_ENV "KL_SANITIZER_SMALL=1" "KL_RC_DEFAULTS=${KL_SANITIZER_RC_PARAMS}" CACHE INTERNAL
    "environment of every test run under compute-sanitizer")
# Defaults of every GPU test's run outside the sanitizers (the slow tier keeps its own count);
# empty: RapidCheck's. ci/gpu.sh sets it for the nightly deep tier's property tests.
set(KL_GPU_RC_DEFAULTS "" CACHE STRING
    "RapidCheck defaults (KL_RC_DEFAULTS) of every GPU test run outside compute-sanitizer; RC_PARAMS overrides them key by key")

# The lower compute capabilities every GPU test also runs under (KL_DEVICE_CC, kl/device_facts.hpp):
# as <test>.cc<MAJOR><MINOR>, label capability-override, so the claim "compute capability 8.0 or
# newer" (README) is tested on whatever GPU runs the tier: there the rungs that need a later GPU say
# they do not apply, and every test must skip them by asking. These runs check which variants
# apply, not numbers, so they take the sanitizer tier's small sizes and case counts (KL_SANITIZER_ENV).
set(KL_CAPABILITY_OVERRIDES "8.0" CACHE STRING
    "Compute capabilities (at most the GPU's) every GPU unit and property test also runs under, through KL_DEVICE_CC")

# Every GPU test's timeout is multiplied by this (the nightly deep tier runs far more cases).
set(KL_TEST_TIMEOUT_SCALE 1 CACHE STRING "Factor applied to the timeout of every GPU test")

# Spreading GPU tests over several GPUs (ci/gpu.sh, ci/resource-spec.sh):
# every GPU test is started through KL_GPU_LAUNCHER and declares CTest RESOURCE_GROUPS. With
# `ctest --resource-spec-file SPEC`, where SPEC gives each GPU KL_CTEST_GPU_SLOTS slots, ctest
# allocates a GPU to each test and the launcher exports it as CUDA_VISIBLE_DEVICES. Without a spec
# file ctest allocates nothing, the launcher changes nothing, and every test sees every GPU.
set(KL_GPU_LAUNCHER "${_kl_gpu_launcher}" CACHE INTERNAL "harness/testing/ctest-gpu-env.sh: ctest's GPU allocation -> CUDA_VISIBLE_DEVICES")
set(KL_CTEST_GPU_SLOTS 8 CACHE STRING
    "GPU tests that may share one GPU under a ctest resource spec (a perf test takes all of them)")

# What every test that shares a GPU runs with (kl_gpu_resources without WHOLE_GPU).
# CUDA_DEVICE_MAX_CONNECTIONS=1: one hardware work queue per CUDA context instead of eight. The
# driver creates contexts one at a time, so a tier of hundreds of short test processes on one GPU
# waits on context creation: on the H100, 64 bare contexts created 16 at a time took 11.9 s with
# the default and 4.4 s with one queue, and the gpu preset's tests outside the perf tier 117-122 s
# and 90 s. Streams beyond one would share that queue (false serialisation, which could hide a
# missing cross-stream wait): the lab's kernels and harness launch on one stream only. The perf
# tier, alone on its GPU, keeps the driver's default, as a user's program would run.
set(KL_SHARED_GPU_TEST_ENV "CUDA_DEVICE_MAX_CONNECTIONS=1" CACHE INTERNAL
    "Environment of every test that shares a GPU (kl_gpu_resources without WHOLE_GPU)")

# kl_gpu_resources(<test>... [WHOLE_GPU])
# Declares what the tests need of a GPU: one slot of one GPU by default; WHOLE_GPU takes every
# slot of one GPU (nothing else runs on it) and makes the test RUN_SERIAL, as timing needs.
# A test that shares a GPU also gets KL_SHARED_GPU_TEST_ENV (appended: set the test's own
# ENVIRONMENT before this call, or append to it after).
# Each test's COMMAND must start with ${KL_GPU_LAUNCHER}, which turns the allocation into
# CUDA_VISIBLE_DEVICES; the host test kl.ci.gpu_tests_declare_resources checks both for every
# test labelled gpu. For a perf test:
#   add_test(NAME kl.perf.x COMMAND ${KL_GPU_LAUNCHER} $<TARGET_FILE:${KL_CLI_TARGET}> bench ...)
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
    set_property(TEST ${ARG_UNPARSED_ARGUMENTS} APPEND PROPERTY ENVIRONMENT ${KL_SHARED_GPU_TEST_ENV})
  endif()
endfunction()

# For kl_run_alone and kl_start_first (reads their ARG_* variables): at least one test, each a test
# of the calling directory, and a WHY; FN names the caller in the message, DOES what WHY explains.
macro(_kl_require_named_tests fn does)
  # WHY is text: only an empty one is missing ("No" or "0" would read as false to if(NOT ...)).
  if(NOT ARG_UNPARSED_ARGUMENTS OR "${ARG_WHY}" STREQUAL "")
    message(FATAL_ERROR "${fn}: name at least one test and say WHY it ${does}")
  endif()
  foreach(named_test IN LISTS ARG_UNPARSED_ARGUMENTS)
    if(NOT TEST ${named_test})
      message(FATAL_ERROR "${fn}: no test named ${named_test} in this directory")
    endif()
  endforeach()
endmacro()

# kl_run_alone(<test>... WHY "what was seen")
# Takes registered GPU tests off the shared GPU, for a test that fails beside others and passes
# alone: each runs with the GPU to itself (every slot of one GPU and RUN_SERIAL, as
# kl_gpu_resources(WHOLE_GPU) declares; label whole-gpu; without KL_SHARED_GPU_TEST_ENV). CTest
# starts such tests when nothing else runs, so each adds its own time to the tier's. WHY is printed
# at configure time.
function(kl_run_alone)
  cmake_parse_arguments(ARG "" "WHY" "" ${ARGN})
  _kl_require_named_tests(kl_run_alone "runs alone")
  foreach(test IN LISTS ARG_UNPARSED_ARGUMENTS)
    get_test_property(${test} ENVIRONMENT environment)
    if(NOT environment)
      set(environment "")
    endif()
    list(REMOVE_ITEM environment ${KL_SHARED_GPU_TEST_ENV})
    get_test_property(${test} LABELS labels)
    if(NOT labels)
      set(labels "")
    endif()
    list(APPEND labels whole-gpu)
    set_tests_properties(${test} PROPERTIES ENVIRONMENT "${environment}" LABELS "${labels}")
  endforeach()
  kl_gpu_resources(${ARG_UNPARSED_ARGUMENTS} WHOLE_GPU)
  list(JOIN ARG_UNPARSED_ARGUMENTS ", " names)
  message(STATUS "kernel-lab: ${names} run alone on a GPU: ${ARG_WHY}")
endfunction()

# kl_start_first(<test>... WHY "what was seen")
# Starts the named tests of this directory before every other test, for those whose time beside
# the others sets the end of the shared phase. ctest -j starts tests in descending COST, and a
# test's COST is 0 unless set: in a fresh build directory every test's, so tests start in the
# order they were declared. This sets the named tests' COST to 1000, so they start first, in the
# order declared. ctest's own timings (CTestCostData.txt) replace only a COST of 0, so they start
# first in every later run too (ctest still starts the tests that failed in the run before ahead
# of all). WHY is printed at configure time.
function(kl_start_first)
  cmake_parse_arguments(ARG "" "WHY" "" ${ARGN})
  _kl_require_named_tests(kl_start_first "starts first")
  set_tests_properties(${ARG_UNPARSED_ARGUMENTS} PROPERTIES COST 1000)
  list(JOIN ARG_UNPARSED_ARGUMENTS ", " names)
  message(STATUS "kernel-lab: ${names} start first: ${ARG_WHY}")
endfunction()

function(_kl_common_test_properties name timeout labels)
  set_tests_properties(${name} PROPERTIES
    LABELS "${labels}"
    TIMEOUT ${timeout}
    ENVIRONMENT "KL_CTEST_NAME=${name};KL_CTEST_PRESET=${KL_PRESET}")
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

# kl_gpu_test_binary_in_all(<target>): with KL_BUILD_GPU_TEST_BINARIES OFF (a build that runs
# only the host tier), the GPU test binary <target> is left out of `all`; build it by name.
function(kl_gpu_test_binary_in_all target)
  if(DEFINED KL_BUILD_GPU_TEST_BINARIES AND NOT KL_BUILD_GPU_TEST_BINARIES)
    set_target_properties(${target} PROPERTIES EXCLUDE_FROM_ALL TRUE)
  endif()
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

# kl_add_gpu_test(NAME n TARGET t [LABELS ...] [TIMEOUT s] [ARGS ...] [FILTER gtest-pattern]
#                 [RC_DEFAULTS "key=value ..."]
#                 [SKIP_UNDER_<TOOL> pattern... SKIP_REASON_<TOOL> "reason"]...
#                 [ONLY_SANITIZERS tool... WHY "reason" | WHY_<TOOL> "reason"...]
#                 [NO_SANITIZERS WHY "reason"]
#                 [PROOF_<TOOL> "regex" | PROOF_FINDING_<TOOL> finding]...)
# A GPU test binary, plus one run under each compute-sanitizer tool (n.memcheck, ...) in
# small-case mode (KL_SANITIZER_ENV).
# FILTER runs only the matching gtests (one case per ctest entry, own process); the sanitizer
# runs keep it.
# RC_DEFAULTS replaces KL_GPU_RC_DEFAULTS as the plain run's KL_RC_DEFAULTS (e.g. "max_success=30"
# for a property whose every case waits out a deadlock); sanitizer runs keep the sanitizer's.
# SKIP_UNDER_<TOOL> (MEMCHECK, RACECHECK, SYNCCHECK, INITCHECK) subtracts gtest patterns from that
# one tool's run: the planted or flawed suites that tool reports (their findings are asserted by
# kl.expect.* instead), or a known false report of the tool. Each needs its own SKIP_REASON_<TOOL>,
# printed at configure time on that tool's line only, so no exclusion is silent. Nothing else is
# subtracted: a planted suite that no SKIP_UNDER_<TOOL> names runs under that tool.
# ONLY_SANITIZERS registers just the tools named (for code a tool cannot check, e.g. dynamic
# parallelism); NO_SANITIZERS registers none. The others are not registered at all (never
# run-and-passed), and each one's reason (WHY_<TOOL>, else WHY) is printed on its own line.
# Every exclusion is earned: a tool left out (SKIP_UNDER_<TOOL>, or not registered) needs
# PROOF_<TOOL>, the regex of the tool's report that made us leave it out (or PROOF_FINDING_<TOOL>,
# the planted finding whose registry entry holds that regex: `sanitize --expect-report-of`). The test
# n.<tool>.exclusion_earned runs the tool on exactly what was left out (`kernel-lab sanitize
# --expect-report`) and passes only while the tool still reports it; once a tool version stops,
# it fails saying the exclusion can go.
function(kl_add_gpu_test)
  set(per_tool_keywords)
  set(skip_keywords)
  foreach(tool IN LISTS KL_SANITIZER_TOOLS)
    string(TOUPPER ${tool} upper)
    list(APPEND per_tool_keywords SKIP_REASON_${upper} WHY_${upper} PROOF_${upper} PROOF_FINDING_${upper})
    list(APPEND skip_keywords SKIP_UNDER_${upper})
  endforeach()
  cmake_parse_arguments(ARG "NO_SANITIZERS;_SANITIZED_ELSEWHERE" "NAME;TARGET;TIMEOUT;FILTER;RC_DEFAULTS;WHY;SKIP_REASON;${per_tool_keywords}"
                        "LABELS;ARGS;ONLY_SANITIZERS;${skip_keywords}" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "kl_add_gpu_test(${ARG_NAME}): unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(DEFINED ARG_SKIP_REASON)
    message(FATAL_ERROR "kl_add_gpu_test(${ARG_NAME}): SKIP_REASON is gone: give each tool its own SKIP_REASON_<TOOL>")
  endif()
  _kl_scaled_timeout(ARG_TIMEOUT "${ARG_TIMEOUT}" 300)
  _kl_gtest_filter(filter "${ARG_FILTER}" "")
  add_test(NAME ${ARG_NAME} COMMAND ${KL_GPU_LAUNCHER} $<TARGET_FILE:${ARG_TARGET}> ${ARG_ARGS} ${filter})
  _kl_common_test_properties(${ARG_NAME} ${ARG_TIMEOUT} "gpu;${ARG_LABELS}")
  set(rc_defaults "${KL_GPU_RC_DEFAULTS}")
  if(DEFINED ARG_RC_DEFAULTS)
    set(rc_defaults "${ARG_RC_DEFAULTS}")
  endif()
  if(NOT rc_defaults STREQUAL "")
    set_property(TEST ${ARG_NAME} APPEND PROPERTY ENVIRONMENT "KL_RC_DEFAULTS=${rc_defaults}")
  endif()
  kl_gpu_resources(${ARG_NAME})
  set(overrides ${KL_CAPABILITY_OVERRIDES})
  if("slow" IN_LIST ARG_LABELS)
    set(overrides "")  # the slow tier's larger cases add nothing to which variants apply
  endif()
  foreach(capability IN LISTS overrides)
    string(REPLACE "." "" digits "${capability}")
    set(test_name ${ARG_NAME}.cc${digits})
    add_test(NAME ${test_name} COMMAND ${KL_GPU_LAUNCHER} $<TARGET_FILE:${ARG_TARGET}> ${ARG_ARGS} ${filter})
    _kl_common_test_properties(${test_name} ${ARG_TIMEOUT} "gpu;capability-override;${ARG_LABELS}")
    set_property(TEST ${test_name} APPEND PROPERTY ENVIRONMENT "KL_DEVICE_CC=${capability}" ${KL_SANITIZER_ENV})
    kl_gpu_resources(${test_name})
  endforeach()

  _kl_sanitizer_tools(tools)
  _kl_check_skip_arguments(tools)
  _kl_scaled_timeout(sanitizer_timeout "" 900)
  foreach(tool IN LISTS tools)
    string(TOUPPER ${tool} upper)
    set(test_name ${ARG_NAME}.${tool})
    list(JOIN ARG_SKIP_UNDER_${upper} ":" skipped)
    if(skipped)
      message(STATUS "kernel-lab: ${test_name} leaves out ${skipped}: ${ARG_SKIP_REASON_${upper}}")
    endif()
    _kl_gtest_filter(filter "${ARG_FILTER}" "${skipped}")
    add_test(NAME ${test_name}
      COMMAND ${KL_GPU_LAUNCHER} $<TARGET_FILE:${KL_CLI_TARGET}> sanitize --tool ${tool} --
              $<TARGET_FILE:${ARG_TARGET}> ${ARG_ARGS} ${filter})
    set_tests_properties(${test_name} PROPERTIES
      LABELS "gpu;sanitizer;${tool};${ARG_LABELS}"
      TIMEOUT ${sanitizer_timeout}
      ENVIRONMENT "KL_CTEST_NAME=${test_name};KL_CTEST_PRESET=${KL_PRESET};${KL_SANITIZER_ENV}")
    kl_gpu_resources(${test_name})
  endforeach()
  _kl_add_exclusion_proofs(tools)
endfunction()

# For kl_add_gpu_test (reads its ARG_* variables): one n.<tool>.exclusion_earned test per tool
# that is left out of the test or of some of its suites, running that tool on what was left out
# with the PROOF_<TOOL> regex. REGISTERED names the list variable of the tools that run.
# _SANITIZED_ELSEWHERE (kl_add_slow_property_test only): the same suites run under every tool
# in the normal tier, at the small sizes the tools can take, so leaving them out proves nothing.
macro(_kl_add_exclusion_proofs registered)
  foreach(proof_tool IN LISTS KL_SANITIZER_TOOLS)
    string(TOUPPER ${proof_tool} proof_upper)
    set(proof_filter "")
    if(ARG_SKIP_UNDER_${proof_upper})
      list(JOIN ARG_SKIP_UNDER_${proof_upper} ":" proof_filter)
    elseif(NOT proof_tool IN_LIST ${registered} AND NOT ARG__SANITIZED_ELSEWHERE)
      set(proof_filter "${ARG_FILTER}")
      if(proof_filter STREQUAL "")
        set(proof_filter "*")
      endif()
    endif()
    if(proof_filter STREQUAL "")
      if(DEFINED ARG_PROOF_${proof_upper} OR DEFINED ARG_PROOF_FINDING_${proof_upper})
        message(FATAL_ERROR "kl_add_gpu_test(${ARG_NAME}): PROOF_${proof_upper} given, yet nothing is left out of ${proof_tool}")
      endif()
      continue()
    endif()
    # The report that earns the exclusion: a regex (PROOF_<TOOL>), or the pattern a planted
    # finding declares in its registry entry (PROOF_FINDING_<TOOL>, the finding's name).
    if(ARG_PROOF_${proof_upper} AND NOT ARG_PROOF_FINDING_${proof_upper})
      set(proof_expect --expect-report "${ARG_PROOF_${proof_upper}}")
    elseif(ARG_PROOF_FINDING_${proof_upper} AND NOT ARG_PROOF_${proof_upper})
      set(proof_expect --expect-report-of "${ARG_PROOF_FINDING_${proof_upper}}")
    else()
      message(FATAL_ERROR "kl_add_gpu_test(${ARG_NAME}): ${proof_tool} leaves out ${proof_filter}, "
                          "so PROOF_${proof_upper} (the regex of ${proof_tool}'s report that earns it) or "
                          "PROOF_FINDING_${proof_upper} (the planted finding whose pattern it is) must be given, one of them")
    endif()
    set(proof_name ${ARG_NAME}.${proof_tool}.exclusion_earned)
    add_test(NAME ${proof_name}
      COMMAND ${KL_GPU_LAUNCHER} $<TARGET_FILE:${KL_CLI_TARGET}> sanitize --tool ${proof_tool}
              ${proof_expect} --
              $<TARGET_FILE:${ARG_TARGET}> ${ARG_ARGS} --gtest_filter=${proof_filter})
    set_tests_properties(${proof_name} PROPERTIES
      LABELS "gpu;sanitizer;${proof_tool};exclusion-proof;${ARG_LABELS}"
      TIMEOUT ${sanitizer_timeout}
      ENVIRONMENT "KL_CTEST_NAME=${proof_name};KL_CTEST_PRESET=${KL_PRESET};${KL_SANITIZER_ENV}")
    kl_gpu_resources(${proof_name})
  endforeach()
endmacro()

# Sets OUT to the --gtest_filter argument for POSITIVE minus NEGATIVE (either may be empty), or to
# nothing when there is nothing to filter.
function(_kl_gtest_filter out positive negative)
  set(pattern "${positive}")
  if(negative AND pattern MATCHES "-")
    string(APPEND pattern ":${negative}")  # POSITIVE already has its negative part: extend it
  elseif(negative)
    string(APPEND pattern "-${negative}")
  endif()
  set(arg "")
  if(pattern)
    set(arg "--gtest_filter=${pattern}")
  endif()
  set(${out} "${arg}" PARENT_SCOPE)
endfunction()

# For kl_add_gpu_test (reads its ARG_* variables): sets OUT to the tools whose runs are registered,
# and prints, one line per tool, why each other one is not.
macro(_kl_sanitizer_tools out)
  set(${out} ${KL_SANITIZER_TOOLS})
  if(ARG_NO_SANITIZERS AND ARG_ONLY_SANITIZERS)
    message(FATAL_ERROR "kl_add_gpu_test(${ARG_NAME}): NO_SANITIZERS or ONLY_SANITIZERS, not both")
  elseif(ARG_NO_SANITIZERS)
    set(${out} "")
  elseif(ARG_ONLY_SANITIZERS)
    set(${out} ${ARG_ONLY_SANITIZERS})
  endif()
  foreach(named IN LISTS ARG_ONLY_SANITIZERS)
    if(NOT named IN_LIST KL_SANITIZER_TOOLS)
      message(FATAL_ERROR "kl_add_gpu_test(${ARG_NAME}): ONLY_SANITIZERS names '${named}', not one of ${KL_SANITIZER_TOOLS}")
    endif()
  endforeach()
  foreach(left_out IN LISTS KL_SANITIZER_TOOLS)
    string(TOUPPER ${left_out} left_out_upper)
    if(left_out IN_LIST ${out})
      if(DEFINED ARG_WHY_${left_out_upper})
        message(FATAL_ERROR "kl_add_gpu_test(${ARG_NAME}): WHY_${left_out_upper} given, yet ${left_out} runs")
      endif()
      continue()
    endif()
    set(why "${ARG_WHY}")
    if(DEFINED ARG_WHY_${left_out_upper})
      set(why "${ARG_WHY_${left_out_upper}}")
    endif()
    if(why STREQUAL "")
      message(FATAL_ERROR "kl_add_gpu_test(${ARG_NAME}): no ${left_out} run, and no WHY or WHY_${left_out_upper} says why")
    endif()
    message(STATUS "kernel-lab: ${ARG_NAME}.${left_out} not registered: ${why}")
  endforeach()
endmacro()

# For kl_add_gpu_test: every SKIP_UNDER_<TOOL> comes with its SKIP_REASON_<TOOL> and the reverse,
# and names a tool that runs (a skip under a tool that is not registered would read as coverage).
# REGISTERED names the list variable of the tools that run.
macro(_kl_check_skip_arguments registered)
  foreach(skip_tool IN LISTS KL_SANITIZER_TOOLS)
    string(TOUPPER ${skip_tool} skip_upper)
    if(ARG_SKIP_UNDER_${skip_upper} AND NOT skip_tool IN_LIST ${registered})
      message(FATAL_ERROR "kl_add_gpu_test(${ARG_NAME}): SKIP_UNDER_${skip_upper}, yet no ${skip_tool} run is registered")
    endif()
    if(ARG_SKIP_UNDER_${skip_upper} AND NOT ARG_SKIP_REASON_${skip_upper})
      message(FATAL_ERROR "kl_add_gpu_test(${ARG_NAME}): SKIP_UNDER_${skip_upper} needs SKIP_REASON_${skip_upper}")
    endif()
    if(DEFINED ARG_SKIP_REASON_${skip_upper} AND NOT ARG_SKIP_UNDER_${skip_upper})
      message(FATAL_ERROR "kl_add_gpu_test(${ARG_NAME}): SKIP_REASON_${skip_upper} without SKIP_UNDER_${skip_upper}")
    endif()
  endforeach()
endmacro()

# kl_add_slow_property_test(NAME n TARGET t [FILTER gtest-pattern] [TIMEOUT s])
# The slow tier of a property binary: the same binary with KL_PROPERTY_TIER=slow, under which
# generators draw the large shapes (kl/test_env.hpp) and each property runs
# kl::prop::slow_tier_cases cases unless RC_PARAMS sets max_success. Labels gpu, property, slow,
# so `ctest --preset gpu` runs it and `-LE slow` leaves it out. No sanitizer runs: the shapes
# are far too large for the tools. No KL_RC_DEFAULTS either: the tier's case count is its own
# (the nightly deep tier's max_success=1000 of these shapes would take hours).
function(kl_add_slow_property_test)
  cmake_parse_arguments(ARG "" "NAME;TARGET;FILTER;TIMEOUT" "" ${ARGN})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 900)
  endif()
  kl_add_gpu_test(NAME ${ARG_NAME} TARGET ${ARG_TARGET} FILTER "${ARG_FILTER}" TIMEOUT ${ARG_TIMEOUT}
                  LABELS "property;slow" NO_SANITIZERS _SANITIZED_ELSEWHERE
                  WHY "the slow tier's shapes (n up to 10^8, matmul sides past 512) are far too large for the tools, and its properties run under every tool in the normal tier")
  set_tests_properties(${ARG_NAME} PROPERTIES ENVIRONMENT "KL_CTEST_NAME=${ARG_NAME};KL_CTEST_PRESET=${KL_PRESET};KL_PROPERTY_TIER=slow;${KL_SHARED_GPU_TEST_ENV}")
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
  add_test(NAME ${expect} COMMAND ${KL_GPU_LAUNCHER} $<TARGET_FILE:${KL_CLI_TARGET}> expect ${ARG_NAME})
  _kl_common_test_properties(${expect} ${ARG_TIMEOUT} "gpu;sanitizer;${ARG_TOOL};expected-finding")

  add_test(NAME ${expect}.fix_is_silent
    COMMAND ${KL_GPU_LAUNCHER} $<TARGET_FILE:${KL_CLI_TARGET}> expect ${ARG_NAME} --against-fix)
  _kl_common_test_properties(${expect}.fix_is_silent ${ARG_TIMEOUT}
    "gpu;sanitizer;${ARG_TOOL};expected-finding")
  set_tests_properties(${expect}.fix_is_silent PROPERTIES
    PASS_REGULAR_EXPRESSION "checker can fail: ${ARG_TOOL} stayed silent")
  kl_gpu_resources(${expect} ${expect}.fix_is_silent)

  add_custom_target(repro-${ARG_NAME}
    COMMAND $<TARGET_FILE:${KL_CLI_TARGET}> repro ${ARG_NAME}
    DEPENDS ${KL_CLI_TARGET}
    USES_TERMINAL
    COMMENT "compute-sanitizer ${ARG_TOOL} on planted bug ${ARG_NAME}")
  set_property(GLOBAL APPEND PROPERTY KL_PLANTED_FINDINGS_${PROJECT_NAME} "${ARG_NAME}:${ARG_TOOL}")
endfunction()

# Writes the CMake-side list of planted findings where the registry consistency test reads it.
function(kl_finalize_planted_findings)
  get_property(findings GLOBAL PROPERTY KL_PLANTED_FINDINGS_${PROJECT_NAME})
  list(SORT findings)
  string(REPLACE ";" "\n" lines "${findings}")
  file(WRITE ${PROJECT_BINARY_DIR}/planted_findings.txt "${lines}\n")
endfunction()

# kl_add_perf_test(NAME n ARGS ... [TIMEOUT s]): a perf-tier test. It starts through
# KL_GPU_LAUNCHER and takes a whole GPU alone (kl_gpu_resources WHOLE_GPU, which also makes it
# RUN_SERIAL), so under ci/gpu.sh's resource spec nothing else runs on the GPU it times.
function(kl_add_perf_test)
  cmake_parse_arguments(ARG "" "NAME;TIMEOUT" "ARGS" ${ARGN})
  _kl_scaled_timeout(ARG_TIMEOUT "${ARG_TIMEOUT}" 600)
  add_test(NAME ${ARG_NAME} COMMAND ${KL_GPU_LAUNCHER} ${ARG_ARGS})
  _kl_common_test_properties(${ARG_NAME} ${ARG_TIMEOUT} "gpu;perf")
  kl_gpu_resources(${ARG_NAME} WHOLE_GPU)
endfunction()

# kl_add_family_perf_tests(PREFIX p GATES file OUTPUT_DIR dir [FAMILIES f...])
# The host test <p>.gates.consistency (`<program> gates file`: every key names a benched result),
# and one perf test <p>.perf.<family> per benched family (default: those declared
# kl_family(<f> BENCHED)): `<program> bench --family f --gates file`, writing its JSON, Markdown
# and TSV reports to dir/<family>.{json,md,tsv}. Writes dir/../bench_families.txt, the list the
# host consistency test compares with the family objects.
function(kl_add_family_perf_tests)
  cmake_parse_arguments(ARG "" "PREFIX;GATES;OUTPUT_DIR" "FAMILIES" ${ARGN})
  if(NOT ARG_PREFIX OR NOT ARG_GATES OR NOT ARG_OUTPUT_DIR)
    message(FATAL_ERROR "kl_add_family_perf_tests: PREFIX, GATES and OUTPUT_DIR are required")
  endif()
  if(NOT ARG_FAMILIES)
    kl_declared_families(ARG_FAMILIES BENCHED)
  endif()
  string(REPLACE ";" "\n" lines "${ARG_FAMILIES}")
  file(WRITE ${PROJECT_BINARY_DIR}/bench_families.txt "${lines}\n")
  file(MAKE_DIRECTORY ${ARG_OUTPUT_DIR})
  # The gates file names only results the bench produces (host, no GPU).
  add_test(NAME ${ARG_PREFIX}.gates.consistency COMMAND $<TARGET_FILE:${KL_CLI_TARGET}> gates ${ARG_GATES})
  set_tests_properties(${ARG_PREFIX}.gates.consistency PROPERTIES LABELS host TIMEOUT 60)
  foreach(family IN LISTS ARG_FAMILIES)
    kl_add_perf_test(NAME ${ARG_PREFIX}.perf.${family}
      ARGS $<TARGET_FILE:${KL_CLI_TARGET}> bench --family ${family} --gates ${ARG_GATES}
           --json ${ARG_OUTPUT_DIR}/${family}.json --markdown ${ARG_OUTPUT_DIR}/${family}.md
           --tsv ${ARG_OUTPUT_DIR}/${family}.tsv)
  endforeach()
endfunction()
