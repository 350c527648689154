# Host code under the compiler's sanitizers: the fuzz preset (fuzzer-no-link,address,undefined,
# with clang), or any build given -DKL_SANITIZERS=address,undefined.
#
# Set through KL_SANITIZERS rather than CMAKE_CXX_FLAGS / CMAKE_EXE_LINKER_FLAGS: those also reach
# CMake's probe of nvcc, which then records the host compiler's sanitizer runtimes among CUDA's
# implicit link libraries and links them into every program (two ASan runtimes under clang).
set(KL_SANITIZERS "" CACHE STRING "Sanitizers for host code, e.g. address,undefined (empty: none)")
option(KL_SANITIZE_CUDA_HOST "Also instrument the host side of .cu files (needs nvcc's host compiler to be the C++ compiler)" OFF)

if(KL_SANITIZERS)
  set(_kl_sanitize_flags -fsanitize=${KL_SANITIZERS} -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:${_kl_sanitize_flags}>")
  if(KL_SANITIZE_CUDA_HOST)
    list(JOIN _kl_sanitize_flags "," _kl_sanitize_host)
    add_compile_options("$<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=${_kl_sanitize_host}>")
  endif()
  # Linking takes the runtimes only: libFuzzer's own main is linked into the fuzz targets alone.
  string(REPLACE "fuzzer-no-link," "" KL_SANITIZE_LINK "${KL_SANITIZERS}")
  string(REPLACE ",fuzzer-no-link" "" KL_SANITIZE_LINK "${KL_SANITIZE_LINK}")
  add_link_options("$<$<LINK_LANGUAGE:CXX>:-fsanitize=${KL_SANITIZE_LINK}>")
  message(STATUS "kernel-lab: host code built with -fsanitize=${KL_SANITIZERS}")
endif()
