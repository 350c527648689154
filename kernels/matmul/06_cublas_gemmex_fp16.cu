// Teaches: tensor cores through cublasGemmEx, FP16 inputs with FP32 accumulation and output.
// Its accuracy is that of the FP16-rounded inputs (the oracle rounds them the same way).
// Seed: 004_f92a7ab1d28b5b9a.txt section 11, `cublasGemmEx` (CUDA_R_16F in, CUDA_R_32F out).
#include "cublas_handle.hpp"
#include "launchers.hpp"

#include "kl/grid.hpp"

#include <cuda_fp16.h>

namespace kl::matmul {
namespace {

// The lab's inputs are FP32; stage_fp16_inputs rounds them into scratch copies (launch() does it
// every time; the bench once, before timing the GEMM alone).
__global__ void to_half(const float* in, __half* out, long long count) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) out[i] = __float2half_rn(in[i]);
}

__half* staged_half(ScratchSlot slot, std::int64_t count) {
  return static_cast<__half*>(scratch(slot, static_cast<std::size_t>(count) * sizeof(__half)));
}

void stage_half(ScratchSlot slot, const float* in, std::int64_t count, cudaStream_t stream) {
  constexpr int threads = 256;
  to_half<<<static_cast<unsigned>(grid_1d(count, threads)), threads, 0, stream>>>(in, staged_half(slot, count), count);
}

}  // namespace

void stage_fp16_inputs(const Args& args, cudaStream_t stream) {
  const Shape& s = args.shape;
  stage_half(ScratchSlot::half_a, args.a, s.m * s.k, stream);
  stage_half(ScratchSlot::half_b, args.b, s.k * s.n, stream);
}

void launch_cublas_gemmex_fp16_staged(const Args& args, cudaStream_t stream) {
  const Shape& s = args.shape;
  const __half* a = staged_half(ScratchSlot::half_a, s.m * s.k);
  const __half* b = staged_half(ScratchSlot::half_b, s.k * s.n);
  const float alpha = 1.0f, beta = 0.0f;
  cublasHandle_t handle = cublas_handle();
  KL_CUBLAS_CHECK(cublasSetStream(handle, stream));
  // Row-major C = A B is column-major C^T = B^T A^T (see 00_cublas_sgemm.cu).
  KL_CUBLAS_CHECK(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(s.n), static_cast<int>(s.m),
                               static_cast<int>(s.k), &alpha, b, CUDA_R_16F, static_cast<int>(s.n), a, CUDA_R_16F,
                               static_cast<int>(s.k), &beta, args.c, CUDA_R_32F, static_cast<int>(s.n),
                               CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

void launch_cublas_gemmex_fp16(const Args& args, cudaStream_t stream) {
  stage_fp16_inputs(args, stream);
  launch_cublas_gemmex_fp16_staged(args, stream);
}

}  // namespace kl::matmul
