// Teaches (beyond the seeds): exp (03) at the bandwidth limit with float4 loads and stores, one
// vector per thread (vectorized_map.cuh). The same expf per element, so the same ulp bound;
// __expf would be faster still but is several ulp off, which the check would reject.
// Seed: 002_546f08ca611913b2.txt, kernel `exp_kernel` (the rung this speeds up).
#include "vectorized_map.cuh"

namespace kl::elementwise {
namespace {

struct Exp {
  static constexpr bool binary = false;  // reads a only
  __device__ float operator()(float x) const { return expf(x); }
};

}  // namespace

void launch_exp_vectorized(const Args& args, cudaStream_t stream) { launch_vectorized_map(args, stream, Exp{}); }

}  // namespace kl::elementwise
