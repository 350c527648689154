// Reference (variant 0): cuBLAS SGEMM in pure FP32, the ratio denominator of every variant.
// cuBLAS is column-major: a row-major C (m x n) is a column-major C^T (n x m) = B^T A^T, so
// B is passed first with the roles of m and n swapped. Seed: 003_2eb1131b3d611900.txt (cuBLAS).
#include "cublas_handle.hpp"
#include "launchers.hpp"

namespace kl::matmul {

void launch_cublas_sgemm(const Args& args, cudaStream_t stream) {
  const Shape& s = args.shape;
  const float alpha = 1.0f, beta = 0.0f;
  const int m = static_cast<int>(s.m), n = static_cast<int>(s.n), k = static_cast<int>(s.k);
  cublasHandle_t handle = cublas_handle();
  KL_CUBLAS_CHECK(cublasSetStream(handle, stream));
  KL_CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, args.b, n, args.a, k, &beta,
                              args.c, n));
}

}  // namespace kl::matmul
