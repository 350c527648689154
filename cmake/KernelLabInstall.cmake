# `cmake --install` exports the harness as the CMake package KernelLab, for projects that put
# their own kernels under it (examples/own-kernel is one):
#   find_package(KernelLab REQUIRED)
#   add_library(my_kernels STATIC my_family.cu)        # KL_KIT_FAMILY(my_family, ...) (harness/cli/kit.hpp)
#   target_link_libraries(my_kernels PUBLIC KernelLab::harness PRIVATE KernelLab::compile_options)
#   kl_family(my_family BENCHED)
#   kl_add_lab(PROGRAM my-lab LIBRARIES my_kernels TESTS ... GATES ... PLANTED ...)
# (a family written by hand, family.hpp, can still use the single functions below instead).
#
# Targets (namespace KernelLab::): common (CUDA checks, device and guarded buffers, the
# registry's vocabulary, timing, the watchdog), bench_core (gates, reports, roofline),
# harness (the command line's commands, the bench's measuring context, the kit), cli_main
# (main()), gpu_test_main (a GoogleTest main that fails without a GPU), property_support
# (KL_PROPERTY, generators, replay lines), derived_host_tests and derived_gpu_tests (the tests a
# family with derived checks gets, compiled into the project's binaries), compile_options (C++20,
# warnings). CMake functions: kl_family, kl_add_family_set, kl_add_lab, kl_add_host_test,
# kl_add_gpu_test (with its four sanitizer runs), kl_add_slow_property_test,
# kl_add_planted_finding, kl_finalize_planted_findings, kl_add_perf_test, the perturbation
# tier's kl_perturbation_units, kl_add_perturbed_executable, kl_add_perturb_test and
# kl_add_perturbation_finding,
# kl_add_family_perf_tests, kl_gpu_resources, and the gpu preset's configure-time check.
include(CMakePackageConfigHelpers)

set(KL_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/KernelLab)
set(KL_INSTALL_DATADIR ${CMAKE_INSTALL_DATADIR}/KernelLab)
set(KL_INSTALL_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR}/kernel_lab)

# The exported names, without the kl_ prefix the lab's own build uses.
set_target_properties(kl_common PROPERTIES EXPORT_NAME common)
set_target_properties(kl_bench_core PROPERTIES EXPORT_NAME bench_core)
set_target_properties(kl_harness PROPERTIES EXPORT_NAME harness)
set_target_properties(kl_cli_main PROPERTIES EXPORT_NAME cli_main)
set_target_properties(kl_gpu_test_main PROPERTIES EXPORT_NAME gpu_test_main)
set_target_properties(kl_property_support PROPERTIES EXPORT_NAME property_support)
set_target_properties(kl_compile_options PROPERTIES EXPORT_NAME compile_options)
set_target_properties(kl_derived_host_tests PROPERTIES EXPORT_NAME derived_host_tests)
set_target_properties(kl_derived_gpu_tests PROPERTIES EXPORT_NAME derived_gpu_tests)

install(TARGETS kl_common kl_bench_core kl_harness kl_cli_main kl_gpu_test_main kl_property_support
                kl_compile_options kl_derived_host_tests kl_derived_gpu_tests
  EXPORT KernelLabTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${KL_INSTALL_INCLUDEDIR})
install(EXPORT KernelLabTargets NAMESPACE KernelLab:: DESTINATION ${KL_INSTALL_CMAKEDIR})

# The harness's headers only: the lab's family headers (kl/elementwise.hpp, ...) stay out.
install(FILES
  harness/include/kl/case_result.hpp harness/include/kl/check.hpp harness/include/kl/cuda_check.hpp
  harness/include/kl/device_buffer.hpp harness/include/kl/device_compare.hpp
  harness/include/kl/device_facts.hpp harness/include/kl/error_bounds.hpp harness/include/kl/geometry.hpp
  harness/include/kl/grid.hpp harness/include/kl/guarded_buffer.hpp harness/include/kl/host_parallel.hpp
  harness/include/kl/perturb.hpp harness/include/kl/perturb.cuh harness/include/kl/perturb_points.cuh
  harness/include/kl/registry.hpp harness/include/kl/scoped_setting.hpp harness/include/kl/test_env.hpp
  harness/include/kl/timing.hpp harness/include/kl/watchdog.hpp harness/include/kl/watchdog.cuh
  harness/include/kl/watchdog_view.hpp
  DESTINATION ${KL_INSTALL_INCLUDEDIR}/kl)
install(FILES
  harness/core/charts.hpp harness/core/format.hpp harness/core/gates.hpp harness/core/input_file.hpp harness/core/json_value.hpp harness/core/repetitions.hpp
  harness/core/report.hpp harness/core/result.hpp harness/core/report_reader.hpp harness/core/roofline.hpp
  harness/core/run_compare.hpp
  harness/core/size_sweep.hpp
  DESTINATION ${KL_INSTALL_INCLUDEDIR}/core)
install(FILES
  harness/cli/args.hpp harness/cli/bench_context.hpp harness/cli/bench_selection.hpp harness/cli/cli.hpp
  harness/cli/family.hpp harness/cli/kit.hpp harness/cli/kit.cuh harness/cli/report_output.hpp harness/cli/run_support.hpp harness/cli/sanitizer.hpp harness/cli/version.hpp
  DESTINATION ${KL_INSTALL_INCLUDEDIR}/cli)
install(FILES harness/property/generators.hpp harness/property/pairwise.hpp harness/property/property.hpp
  DESTINATION ${KL_INSTALL_INCLUDEDIR}/property)
install(FILES harness/cli/main.cpp DESTINATION ${KL_INSTALL_DATADIR})
install(FILES harness/derived/derived.hpp harness/derived/derived.cpp harness/derived/derived_host_tests.cpp
              harness/derived/derived_gpu_tests.cpp
  DESTINATION ${KL_INSTALL_DATADIR}/derived)
install(PROGRAMS harness/testing/ctest-gpu-env.sh harness/testing/expect_exit.sh DESTINATION ${KL_INSTALL_DATADIR})
install(FILES
  cmake/KernelLabFamilies.cmake cmake/KernelLabGpuCheck.cmake cmake/KernelLabProgram.cmake cmake/KernelLabPerturbation.cmake
  cmake/KernelLabTesting.cmake
  DESTINATION ${KL_INSTALL_CMAKEDIR})

configure_package_config_file(cmake/KernelLabConfig.cmake.in
  ${PROJECT_BINARY_DIR}/KernelLabConfig.cmake
  INSTALL_DESTINATION ${KL_INSTALL_CMAKEDIR}
  PATH_VARS KL_INSTALL_DATADIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/KernelLabConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/KernelLabConfig.cmake ${PROJECT_BINARY_DIR}/KernelLabConfigVersion.cmake
  DESTINATION ${KL_INSTALL_CMAKEDIR})
