// Teaches: register prefetching (double-buffered fragments). Rung 25 issues a step's shared
// loads and then waits for them: its A fragment, 8 rows x 4 k as float4 (32 registers), leaves no
// room under the 128-register cap for a second set, so ncu shows a quarter of the issue slots
// empty. Here A is stored transposed (As[k][m], written by 4-byte cp.async copies: the transpose
// costs no registers), a step needs 8 + 8 operands, and two sets of them alternate: step k+1's
// loads are in flight while step k's 64 FMAs issue, and the next tile's first step is loaded
// right after the tile's one barrier (sgemm_prefetched.cuh). Any m, n, k (zero-padded staging,
// sgemm_whole_tiles.hpp).
// Goal served: seed 003_2eb1131b3d611900.txt ("an SGEMM at 50% of the FP32 peak", its part 2);
// the technique is register double buffering of the operand fragments, as in the well-known
// hand-scheduled SGEMMs.
#include "launchers.hpp"
#include "sgemm_prefetched.cuh"

namespace kl::matmul {

using RegisterPrefetchConfig = prefetched::Config<128, 128, 8, 32, 64, 3>;

const TileShape register_prefetch_tile = prefetched::tile_of<RegisterPrefetchConfig>();

void launch_register_prefetch(const Args& args, cudaStream_t stream) {
  launch_whole_tiles(args, stream, register_prefetch_tile, prefetched::launch<RegisterPrefetchConfig>);
}

}  // namespace kl::matmul
