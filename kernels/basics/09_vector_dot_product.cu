// Teaches: CUDA's vector types: one float3 load per operand, a 3-term dot product per index.
// Fixes: the seed indexes with threadIdx.x alone (n <= one block); here a guarded grid.
// Seed: 004_f92a7ab1d28b5b9a.txt, kernel `vectorDotProduct` (float3).
#include "launchers.hpp"

namespace kl::basics {
namespace {

__global__ void vectorDotProduct(const float3 *a, const float3 *b, float *result, int n) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id < n) {
    // Perform elem-wise dot product
    float3 va = a[id];
    float3 vb = b[id];
    result[id] = va.x * vb.x;
    result[id] += va.y * vb.y;
    result[id] += va.z * vb.z;
  }
}

}  // namespace

void launch_vector_dot_product(const Args& args, cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>(grid_1d(args.shape.cols, args.shape.block.x));
  if (blocks == 0) return;
  vectorDotProduct<<<blocks, args.shape.block.x, 0, stream>>>(
      static_cast<const float3*>(args.a), static_cast<const float3*>(args.b), static_cast<float*>(args.out),
      args.shape.cols);
}

}  // namespace kl::basics
