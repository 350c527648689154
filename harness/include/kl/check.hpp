// KL_CUDA_CHECK: the one way kernel-lab turns a CUDA status into an error.
// It throws (never exits) so tests can catch and the CLI can print and return 1.
#pragma once

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace kl {

// A failed CUDA runtime call: the expression, where it was written and CUDA's message.
class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t status, const char* expression, const char* file, int line);
  cudaError_t status() const noexcept { return status_; }

 private:
  cudaError_t status_;
};

// No usable GPU (no driver, no device, or CUDA_VISIBLE_DEVICES hides them all).
class NoGpuError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail {
void throw_cuda_error(cudaError_t status, const char* expression, const char* file, int line);
}  // namespace detail

}  // namespace kl

#define KL_CUDA_CHECK(expr)                                                    \
  do {                                                                         \
    const cudaError_t kl_status_ = (expr);                                     \
    if (kl_status_ != cudaSuccess) {                                           \
      ::kl::detail::throw_cuda_error(kl_status_, #expr, __FILE__, __LINE__);   \
    }                                                                          \
  } while (false)
