// The process's cuBLAS handle (created on first use) and KL_CUBLAS_CHECK, which throws like
// KL_CUDA_CHECK so tests catch and the CLI prints.
#pragma once

#include <cublas_v2.h>

namespace kl::matmul {

// Pure FP32 math: CUBLAS_DEFAULT_MATH never uses TF32 for SGEMM, and reduced-precision
// reductions are disallowed, so SGEMM is an FP32 reference the bound applies to.
cublasHandle_t cublas_handle();

namespace detail {
[[noreturn]] void throw_cublas_error(cublasStatus_t status, const char* expression, const char* file, int line);
}  // namespace detail

}  // namespace kl::matmul

#define KL_CUBLAS_CHECK(expr)                                                           \
  do {                                                                                  \
    const cublasStatus_t kl_cublas_status_ = (expr);                                    \
    if (kl_cublas_status_ != CUBLAS_STATUS_SUCCESS)                                     \
      ::kl::matmul::detail::throw_cublas_error(kl_cublas_status_, #expr, __FILE__, __LINE__); \
  } while (false)
