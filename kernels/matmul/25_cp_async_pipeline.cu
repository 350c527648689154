// Teaches: software pipelining with cp.async. Rung 24 loads a tile, waits at a barrier, computes,
// waits again: the FMA units idle during every load's latency. Here a ring of 3 shared-memory
// stages is filled by cp.async (global -> shared without registers), tile t+2 in flight while
// tile t is computed, one barrier per tile (sgemm_pipelined.cuh). BK grows to 16 so each barrier
// covers twice the FMAs. Any m, n, k (zero-padded staging, sgemm_whole_tiles.hpp).
// Goal served: seed 003_2eb1131b3d611900.txt ("an SGEMM at 50% of the FP32 peak"); the technique
// is multi-stage cp.async pipelining (Ampere and later).
#include "launchers.hpp"
#include "sgemm_pipelined.cuh"

namespace kl::matmul {

using CpAsyncConfig = pipelined::Config<128, 128, 16, 32, 64, 3>;

const TileShape cp_async_pipeline_tile = pipelined::tile_of<CpAsyncConfig>();

void launch_cp_async_pipeline(const Args& args, cudaStream_t stream) {
  launch_whole_tiles(args, stream, cp_async_pipeline_tile, pipelined::launch<CpAsyncConfig>);
}

}  // namespace kl::matmul
