// The errors KL_CUDA_CHECK (kl/cuda_check.hpp) and the device queries throw. They are thrown, never
// exits, so tests can catch them and the CLI can print and return 1.
#pragma once

#include "kl/cuda_check.hpp"

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

}  // namespace kl
