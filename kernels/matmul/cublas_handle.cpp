#include "cublas_handle.hpp"

#include <stdexcept>
#include <string>

namespace kl::matmul {
namespace detail {

void throw_cublas_error(cublasStatus_t status, const char* expression, const char* file, int line) {
  throw std::runtime_error(std::string("cuBLAS error ") + cublasGetStatusName(status) + " (" +
                           cublasGetStatusString(status) + ") in " + expression + " at " + file + ":" +
                           std::to_string(line));
}

}  // namespace detail

namespace {

class CublasHandle {
 public:
  CublasHandle() {
    KL_CUBLAS_CHECK(cublasCreate(&handle_));
    KL_CUBLAS_CHECK(cublasSetMathMode(
        handle_, static_cast<cublasMath_t>(CUBLAS_DEFAULT_MATH | CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION)));
  }
  ~CublasHandle() { cublasDestroy(handle_); }
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  cublasHandle_t get() const { return handle_; }

 private:
  cublasHandle_t handle_{};
};

}  // namespace

cublasHandle_t cublas_handle() {
  // Never destroyed: a static destructor would run cublasDestroy after the CUDA runtime has
  // begun unloading at process end (a known source of crashes at shutdown); the OS reclaims it.
  static const CublasHandle* const handle = new CublasHandle();
  return handle->get();
}

}  // namespace kl::matmul
