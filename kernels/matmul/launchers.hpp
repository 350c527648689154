// Launchers of the matmul and imatmul kernels; the registries are their only callers.
#pragma once

#include "sgemm_whole_tiles.hpp"

#include "kl/matmul_args.hpp"

#include <cstddef>
#include <cstdint>

namespace kl::matmul {

inline constexpr int naive_block = 16;  // the seeds' 16x16 blocks

// `blocks`, or the cap a test set with cap_persistent_grid (kl/matmul.hpp) on the persistent
// tensor-core rungs' grids where that is lower (block_slots.cpp).
int capped_persistent_grid(int blocks);

void launch_cublas_sgemm(const Args& args, cudaStream_t stream);
void launch_uncoalesced(const Args& args, cudaStream_t stream);  // stage + staged kernel
void stage_transposed_b(const Args& args, cudaStream_t stream);
void launch_uncoalesced_staged(const Args& args, cudaStream_t stream);
void launch_naive(const Args& args, cudaStream_t stream);
template <int TILE>
void launch_tiled_shared(const Args& args, cudaStream_t stream);
void launch_tiled_bounds(const Args& args, cudaStream_t stream);
void launch_tiled_padded(const Args& args, cudaStream_t stream);
void launch_cublas_gemmex_fp16(const Args& args, cudaStream_t stream);  // stage + staged GEMM
void stage_fp16_inputs(const Args& args, cudaStream_t stream);
void launch_cublas_gemmex_fp16_staged(const Args& args, cudaStream_t stream);
void launch_tiled_missing_second_sync(const Args& args, cudaStream_t stream);

// The SGEMM ladder beyond the seeds (files 20..28): each rung's tile and launcher.
extern const TileShape block_tile_1d_tile, block_tile_2d_tile, vectorized_tile, conflict_free_tile, warp_tile_tile,
    cp_async_pipeline_tile, register_prefetch_tile, tuned_tile_bound, split_k_tile;
void launch_block_tile_1d(const Args& args, cudaStream_t stream);
void launch_block_tile_2d(const Args& args, cudaStream_t stream);
void launch_vectorized(const Args& args, cudaStream_t stream);
void launch_conflict_free(const Args& args, cudaStream_t stream);
void launch_warp_tile(const Args& args, cudaStream_t stream);
void launch_cp_async_pipeline(const Args& args, cudaStream_t stream);
void launch_register_prefetch(const Args& args, cudaStream_t stream);
void launch_tuned(const Args& args, cudaStream_t stream);
void launch_split_k(const Args& args, cudaStream_t stream);
extern const TileShape stream_k_tile;
void launch_stream_k(const Args& args, cudaStream_t stream);
// PLANTED: rung 29 taking its tickets relaxed (matmul.relaxed_piece_ticket).
void launch_relaxed_piece_ticket(const Args& args, cudaStream_t stream);

// The GPU's SMs and how many blocks of `kernel` an SM holds (its dynamic shared memory already
// allowed), for the grids rungs 28 and 29 plan; asked once per device and kernel. The rungs call
// it through cp_async::block_slots_of (sgemm_cp_async.cuh), which allows the memory first.
struct BlockSlots {
  std::int64_t sms = 0, blocks_per_sm = 0;
};
BlockSlots block_slots(const void* kernel, int threads, std::size_t shared_bytes);
// Rung 28's launch on whole tiles (every side a multiple of the tile): whole tiles, or split-K
// where its rule splits (28_split_k.cu); rung 29 falls back on it where its own plan does not apply.
void launch_whole_or_split(int m, int n, int k, const float* a, const float* b, float* c, cudaStream_t stream);

// The tensor-core ladder beyond the seeds (files 30..37): FP16 A and B staged into zero-padded
// whole tiles of each rung's tile (stage_half_tiles, tensor_core_tiles.hpp), then the kernel alone.
extern const TileShape wmma_global_tile, wmma_shared_tile, mma_sync_pipeline_tile, wgmma_tma_tile, wgmma_persistent_tile,
    wgmma_tma_store_tile;
void launch_wmma_global_staged(const Args& args, cudaStream_t stream);
void launch_wmma_shared_staged(const Args& args, cudaStream_t stream);
void launch_mma_sync_pipeline_staged(const Args& args, cudaStream_t stream);
void launch_wgmma_tma_staged(const Args& args, cudaStream_t stream);
void launch_wgmma_persistent_staged(const Args& args, cudaStream_t stream);
void launch_wgmma_tma_store_staged(const Args& args, cudaStream_t stream);
// Rungs 36 and 37 take every shape: A and B staged as FP16 at their own sizes (stage_half_rows).
void launch_wgmma_stream_k_staged(const Args& args, cudaStream_t stream);
// Rung 37: clusters of two blocks sharing B's panel through TMA multicast where each cluster
// walks three pairs of tiles or more (wgmma_multicast_runs_clusters, kl/matmul.hpp); elsewhere
// rung 36.
void launch_wgmma_multicast_staged(const Args& args, cudaStream_t stream);
// PLANTED: rung 37 whose consumers free ring slots in their own block only (matmul.cluster_local_release).
void launch_cluster_local_release_staged(const Args& args, cudaStream_t stream);
// PLANTED: rung 36 whose consumers' leaders store a partial's last element after announcing it
// (matmul.last_store_after_announce).
void launch_last_store_after_announce_staged(const Args& args, cudaStream_t stream);

inline constexpr int bounds_tile = 16;  // seed 001's TILE_SIZE
inline constexpr int padded_tile = 32;

enum class ScratchSlot {
  transposed_b = 0, half_a = 1, half_b = 2, padded_a = 3, padded_b = 4, padded_c = 5,
  partials = 6,         // rung 36's partial tiles
  stream_k_counts = 7,  // rung 36's count a shared tile and flag a partial (zero between launches)
  split_k_partials = 8, // rung 28's partial Cs
  stream_k_pieces = 9,  // rung 29's pieces of shared tiles, two a block
  stream_k_tickets = 10, // rung 29's ticket count a shared tile (zero between launches)
};
// What a new scratch allocation holds: the lab's poison, or zeros (counters a kernel keeps at zero
// between its launches).
enum class ScratchFill { poison, zeros };
// Device memory of exactly `bytes` for one staged input, reused across launches.
void* scratch(ScratchSlot slot, std::size_t bytes, ScratchFill fill = ScratchFill::poison);

}  // namespace kl::matmul

namespace kl::imatmul {
inline constexpr int tile = 16;
void launch_cpu_oracle(const Args& args, cudaStream_t stream);
void launch_naive(const Args& args, cudaStream_t stream);
void launch_tiled(const Args& args, cudaStream_t stream);
}  // namespace kl::imatmul
