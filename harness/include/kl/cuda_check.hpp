// KL_CUDA_CHECK: the one way kernel-lab turns a CUDA status into an error (kl::CudaError, in
// kl/check.hpp). This header declares only what the macro expands to and includes no standard
// header: a .cu file that needs the macro alone compiles without <string> and <stdexcept>, which
// nvcc's front ends would otherwise parse twice in every such file.
#pragma once

#include <cuda_runtime_api.h>

namespace kl::detail {
// Throws kl::CudaError for `status` (never returns): defined in harness/runtime/check.cpp.
[[noreturn]] void throw_cuda_error(cudaError_t status, const char* expression, const char* file, int line);
}  // namespace kl::detail

#define KL_CUDA_CHECK(expr)                                                    \
  do {                                                                         \
    const cudaError_t kl_status_ = (expr);                                     \
    if (kl_status_ != cudaSuccess) {                                           \
      ::kl::detail::throw_cuda_error(kl_status_, #expr, __FILE__, __LINE__);   \
    }                                                                          \
  } while (false)
