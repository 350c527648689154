# The gpu preset runs every test on an NVIDIA GPU, the sanitizer tier under compute-sanitizer.
# On a machine without them it used to configure and build everything, then fail test by test
# with CUDA's "driver version is insufficient for CUDA runtime version". This checks at
# configure time instead and says what is missing in plain words.
#
# Included from CMakeLists.txt after find_package(CUDAToolkit): checks when KL_PRESET is "gpu"
# and KL_REQUIRE_GPU is ON. It also runs as a script, which is how the host test drives it:
#   cmake -DKL_PRESET=gpu [-DKL_REQUIRE_GPU=OFF] [-DCUDAToolkit_BIN_DIR=DIR]
#         [-DCUDAToolkit_VERSION_MAJOR=N] -P cmake/KernelLabGpuCheck.cmake
#
# Why nvidia-smi and not a try_run of cudaGetDeviceCount: nvidia-smi ships with the driver, so
# its absence is itself the plainest diagnosis ("no NVIDIA driver"); it answers in well under a
# second without compiling anything; and ci/gpu.sh asks it the same question, so the two cannot
# disagree about a machine. The one failure a try_run would add, a driver older than the
# toolkit, is caught from the "CUDA Version" nvidia-smi prints.

if(CMAKE_SCRIPT_MODE_FILE)
  cmake_minimum_required(VERSION 3.25)  # policies as in the project (option() and -D values)
endif()

option(KL_REQUIRE_GPU
       "gpu preset: fail at configure time unless nvidia-smi lists a GPU and compute-sanitizer is found" ON)

function(_kl_gpu_check_fail what)
  message(FATAL_ERROR
    "kernel-lab gpu preset: ${what}\n"
    "The gpu preset runs every test on an NVIDIA GPU, the sanitizer tier under compute-sanitizer; "
    "on this machine they would all fail after a full build. Use the host preset here "
    "(cmake --workflow --preset host), or, to build the gpu preset anyway and run it elsewhere, "
    "configure with -DKL_REQUIRE_GPU=OFF.")
endfunction()

# nvidia-smi must exist and list at least one GPU; the driver must speak the toolkit's CUDA major.
function(_kl_require_nvidia_gpu)
  find_program(smi nvidia-smi NO_CACHE)
  if(NOT smi)
    _kl_gpu_check_fail("no NVIDIA driver / no GPU: nvidia-smi not found on PATH")
  endif()
  execute_process(COMMAND "${smi}" -L RESULT_VARIABLE rc OUTPUT_VARIABLE listed ERROR_VARIABLE err TIMEOUT 60)
  if(NOT rc EQUAL 0 OR NOT listed MATCHES "(^|\n)GPU [0-9]+:")
    string(STRIP "${listed}${err}" said)
    _kl_gpu_check_fail("no NVIDIA driver / no GPU: `${smi} -L` lists no GPU (exit ${rc}: ${said})")
  endif()
  execute_process(COMMAND "${smi}" RESULT_VARIABLE rc OUTPUT_VARIABLE banner ERROR_QUIET TIMEOUT 60)
  if(CUDAToolkit_VERSION_MAJOR AND banner MATCHES "CUDA Version: ([0-9]+)\\.([0-9]+)")
    set(driver_cuda "${CMAKE_MATCH_1}.${CMAKE_MATCH_2}")
    if(CMAKE_MATCH_1 LESS CUDAToolkit_VERSION_MAJOR)
      _kl_gpu_check_fail(
        "the NVIDIA driver supports CUDA ${driver_cuda}, older than this build's CUDA ${CUDAToolkit_VERSION_MAJOR}: "
        "every test would fail with \"CUDA driver version is insufficient for CUDA runtime version\". "
        "Update the driver, or configure with an older toolkit (CUDACXX=/path/to/nvcc).")
    endif()
  endif()
  string(REGEX MATCH "GPU [0-9]+:[^\n]*" first_gpu "${listed}")
  message(STATUS "kernel-lab gpu preset: ${first_gpu}")
endfunction()

# Where `kernel-lab` will look at test time (harness/cli/sanitizer.cpp): $KL_COMPUTE_SANITIZER,
# then PATH, then the toolkit's bin directory.
function(_kl_require_compute_sanitizer)
  if(NOT "$ENV{KL_COMPUTE_SANITIZER}" STREQUAL "")
    set(sanitizer "$ENV{KL_COMPUTE_SANITIZER}")
    if(IS_DIRECTORY "${sanitizer}" OR NOT EXISTS "${sanitizer}")
      _kl_gpu_check_fail("compute-sanitizer not found: KL_COMPUTE_SANITIZER=${sanitizer} is not a file")
    endif()
  else()
    find_program(sanitizer compute-sanitizer NO_CACHE PATHS "${CUDAToolkit_BIN_DIR}")
    if(NOT sanitizer)
      _kl_gpu_check_fail(
        "compute-sanitizer not found (looked at $KL_COMPUTE_SANITIZER, every directory on PATH and "
        "'${CUDAToolkit_BIN_DIR}'): the sanitizer tier cannot run. Install the CUDA toolkit's "
        "compute-sanitizer or set KL_COMPUTE_SANITIZER=/path/to/compute-sanitizer.")
    endif()
  endif()
  message(STATUS "kernel-lab gpu preset: compute-sanitizer ${sanitizer}")
endfunction()

function(kl_check_gpu_machine)
  if(NOT KL_REQUIRE_GPU)
    message(STATUS "kernel-lab gpu preset: GPU and compute-sanitizer not checked (KL_REQUIRE_GPU=OFF)")
    return()
  endif()
  _kl_require_nvidia_gpu()
  _kl_require_compute_sanitizer()
endfunction()

if(KL_PRESET STREQUAL "gpu")
  kl_check_gpu_machine()
endif()
