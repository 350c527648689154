// Teaches (beyond the seeds): the guarded add (02) at the bandwidth limit: 16-byte float4 loads
// and stores, one vector per thread, the unaligned head and tail done one by one
// (vectorized_map.cuh: why a full grid beats a resident one looping). Bit-exact like 02: the same
// IEEE add per element.
// Seed: 003_2eb1131b3d611900.txt, kernel `add` (the rung this speeds up).
#include "vectorized_map.cuh"

namespace kl::elementwise {
namespace {

struct Add {
  static constexpr bool binary = true;
  __device__ float operator()(float x, float y) const { return x + y; }
};

}  // namespace

void launch_add_vectorized(const Args& args, cudaStream_t stream) { launch_vectorized_map(args, stream, Add{}); }

}  // namespace kl::elementwise
