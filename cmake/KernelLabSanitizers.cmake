# Host code under the compiler's sanitizers: the fuzz preset (fuzzer-no-link,address,undefined,
# with clang), the host-asan preset (address,undefined with the host side of the .cu files, so
# the whole host tier runs instrumented), or any build given -DKL_SANITIZERS=....
#
# Set through KL_SANITIZERS rather than CMAKE_CXX_FLAGS / CMAKE_EXE_LINKER_FLAGS: those also reach
# CMake's probe of nvcc, which then records the host compiler's sanitizer runtimes among CUDA's
# implicit link libraries and links them into every program (two ASan runtimes under clang).
set(KL_SANITIZERS "" CACHE STRING "Sanitizers for host code, e.g. address,undefined (empty: none)")
option(KL_SANITIZE_CUDA_HOST "Also instrument the host side of .cu files (needs nvcc's host compiler to be the C++ compiler)" OFF)

if(KL_SANITIZERS)
  set(_kl_sanitize_flags -fsanitize=${KL_SANITIZERS} -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:${_kl_sanitize_flags}>")
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC's flow analysis over ASan's instrumentation reports uninitialised reads inside the
    # standard library's <regex> and <functional> that no plain build reports.
    add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:-Wno-maybe-uninitialized>")
  endif()
  # nvcc splits -Xcompiler values at commas, so each sanitizer reaches the host compiler alone.
  string(REPLACE "," ";" _kl_sanitizer_list "${KL_SANITIZERS}")
  if(KL_SANITIZE_CUDA_HOST)
    foreach(_kl_sanitizer IN LISTS _kl_sanitizer_list)
      add_compile_options("$<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-fsanitize=${_kl_sanitizer}>")
    endforeach()
    add_compile_options("$<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-fno-sanitize-recover=all>"
                        "$<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-fno-omit-frame-pointer>")
  endif()
  # Linking takes the runtimes only: libFuzzer's own main is linked into the fuzz targets alone.
  string(REPLACE "fuzzer-no-link," "" KL_SANITIZE_LINK "${KL_SANITIZERS}")
  string(REPLACE ",fuzzer-no-link" "" KL_SANITIZE_LINK "${KL_SANITIZE_LINK}")
  add_link_options("$<$<LINK_LANGUAGE:CXX>:-fsanitize=${KL_SANITIZE_LINK}>")
  if(KL_SANITIZE_CUDA_HOST)
    # Programs that nvcc links (CUDA link language) take the runtimes through its host compiler:
    # nvcc forwards the flag (-forward-unknown-to-host-compiler), and CMake's device-link step
    # wraps it in -Xcompiler itself.
    foreach(_kl_sanitizer IN LISTS _kl_sanitizer_list)
      if(NOT _kl_sanitizer STREQUAL "fuzzer-no-link")
        add_link_options("$<$<LINK_LANGUAGE:CUDA>:-fsanitize=${_kl_sanitizer}>")
      endif()
    endforeach()
  endif()
  # The static libraries of such a build (installed as the KernelLab package) hold the
  # sanitizers' references: whatever links them, here or in a project using the package, links
  # the runtimes too (every library links kl_compile_options).
  target_link_options(kl_compile_options INTERFACE "$<$<LINK_LANGUAGE:CXX>:-fsanitize=${KL_SANITIZE_LINK}>")
  if(KL_SANITIZE_CUDA_HOST)
    foreach(_kl_sanitizer IN LISTS _kl_sanitizer_list)
      if(NOT _kl_sanitizer STREQUAL "fuzzer-no-link")
        target_link_options(kl_compile_options INTERFACE "$<$<LINK_LANGUAGE:CUDA>:-fsanitize=${_kl_sanitizer}>")
      endif()
    endforeach()
  endif()
  message(STATUS "kernel-lab: host code built with -fsanitize=${KL_SANITIZERS}")
endif()
