#include "kl/check.hpp"

#include <string>

namespace kl {

namespace {
std::string format(cudaError_t status, const char* expression, const char* file, int line) {
  return std::string(file) + ":" + std::to_string(line) + ": " + expression + " failed: " +
         cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")";
}
}  // namespace

CudaError::CudaError(cudaError_t status, const char* expression, const char* file, int line)
    : std::runtime_error(format(status, expression, file, line)), status_(status) {}

namespace detail {
void throw_cuda_error(cudaError_t status, const char* expression, const char* file, int line) {
  throw CudaError(status, expression, file, line);
}
}  // namespace detail

}  // namespace kl
