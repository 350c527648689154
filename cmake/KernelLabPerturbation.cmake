# Schedule perturbation (kl/perturb.hpp, kl/perturb.cuh; README, "Bugs no sanitizer sees").
#
# A kernel marks the points where it publishes or consumes across blocks; in every normal build
# they compile to nothing. With KL_PERTURBATION=ON the translation units that mark points are
# compiled a second time with KL_PERTURB defined, and perturbed twins of the test binaries and of
# the harness program link those objects ahead of the normal kernel library, so the normal
# objects of the same units are never pulled from it: the same tests, now with delays at every
# point. The gpu preset turns it on: its workflow runs the perturb tier.
option(KL_PERTURBATION "Build perturbation twins of the kernels that mark cross-block points, and register the perturb tier" OFF)
set(KL_PERTURB_SEEDS 1 2 3 CACHE STRING "Perturbation seeds each perturb-tier test runs under (one ctest entry each)")
set(KL_PERTURB_MAX_DELAY_US 20 CACHE STRING "Longest delay (microseconds) at a perturbation point in the perturb tier")

# kl_perturbation_units(NAME <name> SOURCES <file>... [CUDA_ARCHITECTURES <arch>...] [INCLUDE_DIRECTORIES <dir>...])
# Declares the translation units that mark perturbation points (they are also compiled into the
# normal library as usual). With KL_PERTURBATION on, an OBJECT library kl_perturbed_<name> builds
# them again with KL_PERTURB defined; kl_add_perturbed_executable links every such library.
function(kl_perturbation_units)
  cmake_parse_arguments(ARG "" "NAME" "SOURCES;CUDA_ARCHITECTURES;INCLUDE_DIRECTORIES" ${ARGN})
  if(NOT ARG_NAME OR NOT ARG_SOURCES)
    message(FATAL_ERROR "kl_perturbation_units: NAME and SOURCES are required")
  endif()
  foreach(source IN LISTS ARG_SOURCES)
    get_filename_component(path ${source} ABSOLUTE)
    set_property(GLOBAL APPEND PROPERTY KL_PERTURBATION_SOURCES_${PROJECT_NAME} ${path})
  endforeach()
  if(NOT KL_PERTURBATION)
    return()
  endif()
  set(target kl_perturbed_${ARG_NAME})
  add_library(${target} OBJECT ${ARG_SOURCES})
  target_compile_definitions(${target} PRIVATE KL_PERTURB)
  if(TARGET KernelLab::harness)
    target_link_libraries(${target} PRIVATE KernelLab::harness KernelLab::compile_options)
  else()
    target_link_libraries(${target} PRIVATE kl_harness kl_compile_options)
  endif()
  if(ARG_CUDA_ARCHITECTURES)
    set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES "${ARG_CUDA_ARCHITECTURES}")
  endif()
  if(ARG_INCLUDE_DIRECTORIES)
    target_include_directories(${target} PRIVATE ${ARG_INCLUDE_DIRECTORIES})
  endif()
  set_property(GLOBAL APPEND PROPERTY KL_PERTURBED_UNITS_${PROJECT_NAME} ${target})
endfunction()

# kl_check_perturbation_units(DIRECTORY <dir>)
# Every .cu under <dir> that includes kl/perturb.cuh must be declared with kl_perturbation_units:
# an undeclared one would run unperturbed in the perturb tier, its points compiled to nothing,
# and nothing would say so.
function(kl_check_perturbation_units)
  cmake_parse_arguments(ARG "" "DIRECTORY" "" ${ARGN})
  get_property(declared GLOBAL PROPERTY KL_PERTURBATION_SOURCES_${PROJECT_NAME})
  file(GLOB_RECURSE sources ${ARG_DIRECTORY}/*.cu)
  foreach(source IN LISTS sources)
    file(STRINGS ${source} marks REGEX "#include \"kl/perturb\.cuh\"")
    if(marks AND NOT source IN_LIST declared)
      message(FATAL_ERROR "${source} marks perturbation points (it includes kl/perturb.cuh) but no "
                          "kl_perturbation_units() declares it: the perturb tier would run it unperturbed")
    endif()
  endforeach()
endfunction()

# kl_add_perturbed_executable(<name> [SOURCES <file>...] [TWIN_OF <target>] LIBRARIES <lib>...)
# An executable whose marked kernels are the perturbed ones: their objects come first on the link
# line, so the linker never takes the normal objects of the same units out of the kernel library.
# TWIN_OF reuses another executable's compiled objects (a test binary's: host code, the same in
# both), so a perturbed test binary costs a link, not a second compile.
function(kl_add_perturbed_executable name)
  cmake_parse_arguments(ARG "" "TWIN_OF" "SOURCES;LIBRARIES" ${ARGN})
  get_property(units GLOBAL PROPERTY KL_PERTURBED_UNITS_${PROJECT_NAME})
  if(NOT units)
    message(FATAL_ERROR "kl_add_perturbed_executable(${name}): no kl_perturbation_units declared (KL_PERTURBATION is ${KL_PERTURBATION})")
  endif()
  set(objects "")
  foreach(unit IN LISTS units)
    list(APPEND objects $<TARGET_OBJECTS:${unit}>)
  endforeach()
  if(ARG_TWIN_OF)
    list(APPEND objects $<TARGET_OBJECTS:${ARG_TWIN_OF}>)
  endif()
  add_executable(${name} ${objects} ${ARG_SOURCES})
  set_target_properties(${name} PROPERTIES LINKER_LANGUAGE CXX)
  target_link_libraries(${name} PRIVATE ${ARG_LIBRARIES})
endfunction()

# kl_add_perturb_test(NAME <n> TARGET <perturbed binary> [FILTER <gtest-pattern>] [TIMEOUT s]
#                     [RC_DEFAULTS "key=value ..."])
# The perturb tier: the binary once per seed of KL_PERTURB_SEEDS, as <n>.seed<S>, labels gpu and
# perturb. A failure prints the seed (the binary's main and the property replay lines do), and
#   KL_PERTURB_SEED=S ctest --preset gpu -R '^<n>\.seed<S>$'
# replays it. No sanitizer runs: the delays change nothing a tool checks, and the tier exists for
# what the tools cannot see. The runs take the sanitizer tier's small sizes (KL_SANITIZER_SMALL=1,
# RapidCheck's own case count): the delays, not the sizes, make the rare orders common, and every
# delayed block holds the GPU while it sleeps, so full sizes made the tier a fifth of the
# workflow's GPU time.
function(kl_add_perturb_test)
  cmake_parse_arguments(ARG "" "NAME;TARGET;FILTER;TIMEOUT;RC_DEFAULTS" "" ${ARGN})
  _kl_scaled_timeout(ARG_TIMEOUT "${ARG_TIMEOUT}" 300)
  _kl_gtest_filter(filter "${ARG_FILTER}" "")
  foreach(seed IN LISTS KL_PERTURB_SEEDS)
    set(test_name ${ARG_NAME}.seed${seed})
    add_test(NAME ${test_name} COMMAND ${KL_GPU_LAUNCHER} $<TARGET_FILE:${ARG_TARGET}> ${filter})
    _kl_common_test_properties(${test_name} ${ARG_TIMEOUT} "gpu;perturb")
    set_property(TEST ${test_name} APPEND PROPERTY ENVIRONMENT
      "KL_PERTURB_SEED=${seed}" "KL_PERTURB_MAX_DELAY_US=${KL_PERTURB_MAX_DELAY_US}" "KL_SANITIZER_SMALL=1")
    if(ARG_RC_DEFAULTS)
      set_property(TEST ${test_name} APPEND PROPERTY ENVIRONMENT "KL_RC_DEFAULTS=${ARG_RC_DEFAULTS}")
    endif()
    kl_gpu_resources(${test_name})
  endforeach()
endfunction()

# kl_add_perturbation_finding(NAME <repro-name>)
# For a planted cross-block bug declared in a family registry (Checker::perturbation, repro NAME):
#  - kl.expect.NAME: the perturbed program (<KL_CLI_TARGET>-perturb: kernel-lab-perturb) runs the planted case under
#    seeds until its check fails; passes only if it does.
#  - kl.expect.NAME.fix_is_silent: the same runs of the fix, every one must pass.
#  - kl.expect.NAME.unseen_without_perturbation: the normal program runs the planted case four
#    times and under each compute-sanitizer tool; passes only if every run passes and every tool
#    stays silent, which is why the perturb tier exists.
# The host test kl.registry.consistency fails if this list and the registry disagree.
function(kl_add_perturbation_finding)
  cmake_parse_arguments(ARG "" "NAME;TIMEOUT" "" ${ARGN})
  _kl_scaled_timeout(ARG_TIMEOUT "${ARG_TIMEOUT}" 300)
  set(expect kl.expect.${ARG_NAME})
  set_property(GLOBAL APPEND PROPERTY KL_PLANTED_FINDINGS_${PROJECT_NAME} "${ARG_NAME}:perturbation")
  if(NOT KL_PERTURBATION)
    message(STATUS "kernel-lab: ${expect} not registered: KL_PERTURBATION is OFF (the gpu preset turns it on)")
    return()
  endif()
  set(env "KL_PERTURB_MAX_DELAY_US=${KL_PERTURB_MAX_DELAY_US}")
  # The perturbed twin of the project's harness program: KL_PERTURBED_CLI_TARGET, else
  # <KL_CLI_TARGET>-perturb (the lab's kernel-lab-perturb).
  set(perturbed_cli ${KL_CLI_TARGET}-perturb)
  if(DEFINED KL_PERTURBED_CLI_TARGET)
    set(perturbed_cli ${KL_PERTURBED_CLI_TARGET})
  endif()
  add_test(NAME ${expect} COMMAND ${KL_GPU_LAUNCHER} $<TARGET_FILE:${perturbed_cli}> expect ${ARG_NAME})
  add_test(NAME ${expect}.fix_is_silent
    COMMAND ${KL_GPU_LAUNCHER} $<TARGET_FILE:${perturbed_cli}> expect ${ARG_NAME} --against-fix)
  # Four plain runs beside the tools: the planted twins' unit tests run them at many shapes too.
  add_test(NAME ${expect}.unseen_without_perturbation
    COMMAND ${KL_GPU_LAUNCHER} $<TARGET_FILE:${KL_CLI_TARGET}> expect ${ARG_NAME} --unperturbed --runs 4)
  foreach(test_name ${expect} ${expect}.fix_is_silent ${expect}.unseen_without_perturbation)
    _kl_common_test_properties(${test_name} ${ARG_TIMEOUT} "gpu;perturb;expected-finding")
    set_property(TEST ${test_name} APPEND PROPERTY ENVIRONMENT "${env}")
    kl_gpu_resources(${test_name})
  endforeach()
  set_tests_properties(${expect}.fix_is_silent PROPERTIES
    PASS_REGULAR_EXPRESSION "checker can fail: perturbation stayed silent")
  set_tests_properties(${expect}.unseen_without_perturbation PROPERTIES
    PASS_REGULAR_EXPRESSION "unseen without perturbation")
endfunction()
