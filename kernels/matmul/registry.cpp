// The matmul family's table: cuBLAS SGEMM first, then the seeds' ladder, the tensor-core
// GemmEx, the planted missing barrier and rung 36's planted store after its announcement.
#include "launchers.hpp"
#include "shape_rules.hpp"
#include "tensor_core_tiles.hpp"

#include "kl/device_facts.hpp"
#include "kl/matmul.hpp"

#include <climits>
#include <string>
#include <vector>

namespace kl::matmul {
namespace {

constexpr const char* seed000_003 = "003_2eb1131b3d611900.txt, 000_4eb26088713d3cd0.txt";
constexpr const char* seed001 = "001_7584b942d36babe4.txt";
constexpr const char* seed002 = "002_546f08ca611913b2.txt";
constexpr const char* seed003 = "003_2eb1131b3d611900.txt";
constexpr const char* seed004 = "004_f92a7ab1d28b5b9a.txt";

// A planted finding's `kernel-lab run` arguments: its shape and one timed run, without cuBLAS's
// timing (--reference 0): under a tool or the perturbation build that timing adds only cuBLAS's
// launches (about a third of the piece-ticket twin's unseen run, its four tools and four plain
// runs: docs/GPU_TIER.md).
std::vector<std::string> finding_run(const char* m, const char* n, const char* k) {
  return {"--m", m, "--n", n, "--k", k, "--reps", "1", "--reference", "0"};
}

std::string str(std::int64_t v) { return std::to_string(v); }

// Every kernel indexes with 32-bit ints and puts m on grid y (at most 65535 blocks of 16).
std::string any_shape_no_bias(const Shape& s) {
  if (s.m < 1 || s.n < 1 || s.k < 1)
    return "m, n and k must be >= 1, got m=" + str(s.m) + " n=" + str(s.n) + " k=" + str(s.k);
  // Divided, not multiplied: m, n and k come from the user and their products overflow 64 bits.
  if (s.m > INT_MAX / s.k || s.k > INT_MAX / s.n || s.m > INT_MAX / s.n)
    return "m*k, k*n and m*n must fit in an int (the kernels index with int)";
  // m is grid y of every 2-D launch, n that of 01's transpose of B.
  if (s.m > std::int64_t{65535} * 16 || s.n > std::int64_t{65535} * 16)
    return "m and n must be at most 65535*16 (grid y limit), got m=" + str(s.m) + " n=" + str(s.n);
  return "";
}

std::string no_bias(const Shape& s) {
  if (std::string rule = any_shape_no_bias(s); !rule.empty()) return rule;
  if (s.bias) return "bias is not supported (only tiled_bounds adds a bias)";
  return "";
}

std::string any_shape(const Shape& s) {
  return any_shape_no_bias(s);
}

// The seeds' unguarded 16x16 kernels: whole blocks only.
std::string whole_blocks_16(const Shape& s) {
  if (std::string rule = no_bias(s); !rule.empty()) return rule;
  if (s.m % naive_block != 0 || s.n % naive_block != 0)
    return "m and n must be multiples of 16 (no bounds guard), got m=" + str(s.m) + " n=" + str(s.n);
  return "";
}

template <int TILE>
std::string square_multiple_of(const Shape& s) {
  if (std::string rule = no_bias(s); !rule.empty()) return rule;
  if (s.m != s.n || s.n != s.k)
    return "square only: m == n == k required, got m=" + str(s.m) + " n=" + str(s.n) + " k=" + str(s.k);
  if (s.n % TILE != 0) return "n must be a multiple of TILE=" + str(TILE) + ", got " + str(s.n);
  return "";
}

// The SGEMM ladder's rungs compute whole tiles and stage other shapes into padded copies.
template <const TileShape& tile>
std::string whole_tiles(const Shape& s) {
  if (std::string rule = no_bias(s); !rule.empty()) return rule;
  return whole_tiles_violation(s, tile);
}

// The rungs built on cp.async (Ampere's asynchronous copy) or on mma.sync's m16n8k16 FP16 shape:
// whole tiles, on compute capability 8.0 or newer (else they do not apply).
template <const TileShape& tile>
std::string whole_tiles_from_sm80(const Shape& s) {
  if (std::string rule = whole_tiles<tile>(s); !rule.empty()) return rule;
  return capability_shortfall(8, 0, "cp.async and mma.sync.m16n8k16");
}

// The sm_90a rung: whole tiles, and a GPU that runs sm_90a code (else it does not apply).
std::string wgmma_tma_rule(const Shape& s) {
  if (std::string rule = whole_tiles<wgmma_tma_tile>(s); !rule.empty()) return rule;
  return wgmma_tma_unavailable();
}
std::string wgmma_persistent_rule(const Shape& s) {
  if (std::string rule = whole_tiles<wgmma_persistent_tile>(s); !rule.empty()) return rule;
  return wgmma_persistent_unavailable();
}
std::string wgmma_tma_store_rule(const Shape& s) {
  if (std::string rule = whole_tiles<wgmma_tma_store_tile>(s); !rule.empty()) return rule;
  return wgmma_tma_store_unavailable();
}
// Rungs 36 and 37 read and write through TMA's bounds: any shape the int indexing takes, no
// padding (rung 37 runs rung 36 where that shares tiles).
std::string wgmma_stream_k_rule(const Shape& s) {
  if (std::string rule = no_bias(s); !rule.empty()) return rule;
  return wgmma_stream_k_unavailable();
}
std::string wgmma_multicast_rule(const Shape& s) {
  if (std::string rule = wgmma_stream_k_rule(s); !rule.empty()) return rule;
  return wgmma_multicast_unavailable();
}

// The tensor-core rungs' staging: FP16 copies padded to the rung's whole tiles.
template <const TileShape& tile>
void stage_half(const Args& args, cudaStream_t stream) {
  stage_half_tiles(args, stream, tile);
}

// launch() of a staged variant: the staging, then the kernel (the bench times the second alone).
template <void (*stage)(const Args&, cudaStream_t), void (*staged)(const Args&, cudaStream_t)>
void stage_then_launch(const Args& args, cudaStream_t stream) {
  stage(args, stream);
  staged(args, stream);
}

const std::vector<Variant>& table() {
  static const std::vector<Variant> variants = {
      {{{"matmul", "cublas_sgemm", "-", "cublasSgemm",
         "Variant 0: cuBLAS SGEMM in pure FP32 (no TF32); row-major C = A B is column-major "
         "C^T = B^T A^T. Every time is read as a share of it.",
         Role::reference, {}},
        no_bias, launch_cublas_sgemm}},
      {{{"matmul", "uncoalesced", seed000_003, "matmul_uncoalesced",
         "B read transposed: bt[col*K + i] strides by K across a warp, one memory transaction per "
         "thread (seed: ~0.6 TFLOPS vs 2.7 coalesced). B is staged transposed first; timings are "
         "of the kernel alone.",
         Role::teaching, {}},
        whole_blocks_16, launch_uncoalesced},
       InputPrecision::fp32, stage_transposed_b, launch_uncoalesced_staged},
      {{{"matmul", "naive", seed003, "matmul",
         "One thread per C element; b[i*N + col] is coalesced across the warp.", Role::teaching, {}},
        whole_blocks_16, launch_naive}},
      {{{"matmul", "tiled_2", seed003, "tiled_matmul",
         "The seed's 4x4 walk-through: 2x2 tiles, each block loads a tile of A and B, barrier, "
         "accumulates, barrier.",
         Role::teaching, {}},
        square_multiple_of<2>, launch_tiled_shared<2>}},
      {{{"matmul", "tiled_16", seed003, "tiled_matmul",
         "Shared-memory tiles of 16x16: each global element is loaded once per block and reused "
         "16 times (seed: 3.9 TFLOPS).",
         Role::teaching, {}},
        square_multiple_of<16>, launch_tiled_shared<16>}},
      {{{"matmul", "tiled_32", seed003, "tiled_matmul",
         "Tiles of 32x32: more reuse, but 1024-thread blocks lower occupancy (seed: 3.4 TFLOPS).",
         Role::teaching, {}},
        square_multiple_of<32>, launch_tiled_shared<32>}},
      {{{"matmul", "tiled_bounds", seed001, "tiled_matmul",
         "Bounds checks on every tile load (zero fill) and on the store: any m, k, n; optional "
         "bias as in seed 001's accumulator.",
         Role::teaching, {}},
        any_shape, launch_tiled_bounds}},
      {{{"matmul", "tiled_padded", seed002, "tiled_matmul",
         "Shared tiles padded to [TILE][TILE+1] so rows start in different banks (TILE=32).",
         Role::teaching, {}},
        square_multiple_of<padded_tile>, launch_tiled_padded}},
      {{{"matmul", "cublas_gemmex_fp16", seed004, "cublasGemmEx",
         "Tensor cores: FP16 inputs, FP32 accumulate and output; accurate to the FP16-rounded "
         "inputs, not to the FP32 ones. A and B are staged as FP16 first; timings are of the "
         "GEMM alone.",
         Role::teaching, {}},
        no_bias, launch_cublas_gemmex_fp16},
       InputPrecision::fp16, stage_fp16_inputs, launch_cublas_gemmex_fp16_staged},
      {{{"matmul", "block_tile_1d", seed003, "-",
         "Beyond the seeds: 1-D block tiling, each thread a column of 8 results of a 64x64 tile, so a "
         "value of B read from shared memory feeds 8 FMAs. Other shapes run on zero-padded copies.",
         Role::teaching, {}},
        whole_tiles<block_tile_1d_tile>, launch_block_tile_1d}},
      {{{"matmul", "block_tile_2d", seed003, "-",
         "Beyond the seeds: 2-D block tiling, an 8x8 register tile per thread of a 128x128 block tile "
         "built from outer products: 16 shared-memory loads per 64 FMAs.",
         Role::teaching, {}},
        whole_tiles<block_tile_2d_tile>, launch_block_tile_2d}},
      {{{"matmul", "vectorized", seed003, "-",
         "Beyond the seeds: float4 global loads and stores, A transposed in shared memory so a "
         "thread's 8 values of A and of B each load as two float4.",
         Role::teaching, {}},
        whole_tiles<vectorized_tile>, launch_vectorized}},
      {{{"matmul", "conflict_free", seed002, "-",
         "Beyond the seeds: the transposed A tile padded by 4 floats and each thread's B columns split "
         "in two float4 half a tile apart, so no shared-memory access is replayed for bank conflicts.",
         Role::teaching, {}},
        whole_tiles<conflict_free_tile>, launch_conflict_free}},
      {{{"matmul", "warp_tile", seed003, "-",
         "Beyond the seeds: warp tiling, each warp a contiguous 32x64 sub-tile, each lane 4x4 pieces "
         "of it: a third less shared-memory traffic per FMA than whole-block thread rows.",
         Role::teaching, {}},
        whole_tiles<warp_tile_tile>, launch_warp_tile}},
      {{{"matmul", "cp_async_pipeline", seed003, "-",
         "Beyond the seeds: a 3-stage ring of shared-memory tiles filled by cp.async while earlier "
         "stages are computed, one barrier per 16-deep tile: load latency hidden behind FMAs.",
         Role::teaching, {}},
        whole_tiles_from_sm80<cp_async_pipeline_tile>, launch_cp_async_pipeline}},
      {{{"matmul", "register_prefetch", seed003, "-",
         "Beyond the seeds: A transposed in shared memory by 4-byte cp.async copies and each step's "
         "operands double-buffered in registers, loaded while the previous step's FMAs run.",
         Role::teaching, {}},
        whole_tiles_from_sm80<register_prefetch_tile>, launch_register_prefetch}},
      {{{"matmul", "tuned", seed003, "-",
         "Beyond the seeds: rung 26's kernel with block tile, warp tile, depth and stages as "
         "template arguments; `kernel-lab tune matmul.tuned` picks the fastest per GPU model (and class of "
         "shapes by C's size) into sgemm_tuning.conf, which this rung follows.",
         Role::teaching, {}},
        whole_tiles_from_sm80<tuned_tile_bound>, launch_tuned}},
      {{{"matmul", "split_k", seed003, "-",
         "Beyond the seeds: rung 27's H100 configuration, with k split into runs where C's tiles would "
         "leave half the SMs or more idle: each run into a partial C of its own, a second kernel "
         "adding them in run order. Other shapes run rung 27's H100 kernel unchanged (its [large] line's "
         "at a C of 8192 x 8192 or more).",
         Role::teaching, {}},
        whole_tiles_from_sm80<split_k_tile>, launch_split_k}},
      {{{"matmul", "stream_k", seed003, "-",
         "Beyond the seeds: rung 27's H100 configuration with the tiles past the last whole round dealt "
         "out first, as equal shares of their k tiles, to one block a slot, each share walked from "
         "its end so that all sharers read nearby k tiles at once; the whole rounds' tiles "
         "follow, one block each. A shared tile's pieces go through global memory and the sharer that "
         "takes its last ticket adds them in block order. Where the last round would be over 95% "
         "full, or C fills under half the slots, it runs rung 28.",
         Role::teaching, {}},
        whole_tiles_from_sm80<stream_k_tile>, launch_stream_k}},
      {{{"matmul", "wmma_global", seed004, "-",
         "Beyond the seeds, tensor cores: WMMA, one warp per 16x16 tile of C multiplying 16x16x16 FP16 "
         "fragments loaded straight from global memory, FP32 accumulation. Other shapes run on "
         "zero-padded FP16 copies.",
         Role::teaching, {}},
        whole_tiles<wmma_global_tile>, stage_then_launch<stage_half<wmma_global_tile>, launch_wmma_global_staged>},
       InputPrecision::fp16, stage_half<wmma_global_tile>, launch_wmma_global_staged},
      {{{"matmul", "wmma_shared", seed004, "-",
         "Beyond the seeds, tensor cores: WMMA on 128x32 and 32x128 shared-memory tiles (rows padded "
         "by 16 bytes), eight warps each a 32x64 piece of a 128x128 block: every loaded value feeds "
         "4 or 8 mma_syncs.",
         Role::teaching, {}},
        whole_tiles<wmma_shared_tile>, stage_then_launch<stage_half<wmma_shared_tile>, launch_wmma_shared_staged>},
       InputPrecision::fp16, stage_half<wmma_shared_tile>, launch_wmma_shared_staged},
      {{{"matmul", "mma_sync_pipeline", seed004, "-",
         "Beyond the seeds, tensor cores: PTX mma.sync.m16n8k16 fed by ldmatrix (.trans for B) from "
         "XOR-swizzled shared memory, filled by a 3-stage cp.async ring: no bank conflicts, loads "
         "overlapped with the tensor cores.",
         Role::teaching, {}},
        whole_tiles_from_sm80<mma_sync_pipeline_tile>, stage_then_launch<stage_half<mma_sync_pipeline_tile>, launch_mma_sync_pipeline_staged>},
       InputPrecision::fp16, stage_half<mma_sync_pipeline_tile>, launch_mma_sync_pipeline_staged},
      {{{"matmul", "wgmma_tma", seed004, "-",
         "Beyond the seeds, tensor cores on Hopper (sm_90a): wgmma.mma_async 64x256x16 from "
         "shared-memory descriptors, A and B boxes copied by TMA into a 4-stage mbarrier ring, one "
         "producer warpgroup and two consumer warpgroups (setmaxnreg). Does not apply off sm_90a.",
         Role::teaching, {}},
        wgmma_tma_rule, stage_then_launch<stage_half<wgmma_tma_tile>, launch_wgmma_tma_staged>},
       InputPrecision::fp16, stage_half<wgmma_tma_tile>, launch_wgmma_tma_staged},
      {{{"matmul", "wgmma_persistent", seed004, "-",
         "Beyond the seeds, rung 33 made persistent: one block an SM walks tiles in the grouped "
         "order, its TMA/mbarrier ring running on across tiles, so the next tile's first stages "
         "load while the consumers store C. Does not apply off sm_90a.",
         Role::teaching, {}},
        wgmma_persistent_rule, stage_then_launch<stage_half<wgmma_persistent_tile>, launch_wgmma_persistent_staged>},
       InputPrecision::fp16, stage_half<wgmma_persistent_tile>, launch_wgmma_persistent_staged},
      {{{"matmul", "wgmma_tma_store", seed004, "-",
         "Beyond the seeds, rung 34 with C stored through shared memory and TMA: each consumer "
         "writes its half of the tile into 128-byte-swizzled staging and the copy engine drains it "
         "while the tensor cores start the next tile. Does not apply off sm_90a.",
         Role::teaching, {}},
        wgmma_tma_store_rule, stage_then_launch<stage_half<wgmma_tma_store_tile>, launch_wgmma_tma_store_staged>},
       InputPrecision::fp16, stage_half<wgmma_tma_store_tile>, launch_wgmma_tma_store_staged},
      {{{"matmul", "wgmma_stream_k", seed004, "-",
         "Beyond the seeds, rung 35 with stream-K: where C's tiles are fewer than the SMs their "
         "k-steps are dealt out evenly, blocks that share a tile store their partials in global "
         "memory and announce them, and once all have, the sharers add the tile's parts in block "
         "order; TMA's bounds replace the padded copies, so every SM works on every shape. Does not "
         "apply off sm_90a.",
         Role::teaching, {}},
        wgmma_stream_k_rule, stage_then_launch<stage_half_rows, launch_wgmma_stream_k_staged>},
       InputPrecision::fp16, stage_half_rows, launch_wgmma_stream_k_staged},
      {{{"matmul", "wgmma_multicast", seed004, "-",
         "Beyond the seeds, rung 36 in clusters of two blocks on neighbouring SMs: the pair computes "
         "vertically adjacent tiles, and each block copies half of their common B panel into both "
         "blocks' shared memory (TMA multicast), so a block reads a third less from L2; a ring slot "
         "is free once the consumers of both blocks are done with it. Where tiles are fewer than "
         "SMs it is rung 36 (stream-K). Does not apply off sm_90a.",
         Role::teaching, {}},
        wgmma_multicast_rule, stage_then_launch<stage_half_rows, launch_wgmma_multicast_staged>},
       InputPrecision::fp16, stage_half_rows, launch_wgmma_multicast_staged},
      {{{"matmul", "tiled_missing_second_sync", seed001, "tiled_matmul",
         "Without the second __syncthreads() a fast warp overwrites the shared tile that slower "
         "warps still read: a race racecheck reports, silent corruption at best.",
         Role::planted,
         {{Checker::racecheck, R"(Race reported between)", "race-tiled-missing-sync",
           finding_run("64", "64", "64"), "matmul.tiled_bounds"}}},
        any_shape, launch_tiled_missing_second_sync}},
      {{{"matmul", "last_store_after_announce", seed004, "-",
         "PLANTED: rung 36 whose consumers' leaders store the last element of a shared tile's "
         "partial after announcing it: nothing orders that store before the announcement, so a "
         "sharer can add a stale element. Every test and all four sanitizers pass it; the "
         "perturbation build lands the late store well after the announcement, and the tile comes "
         "out wrong.",
         Role::planted,
         {{Checker::perturbation, "", "perturb-last-store-after-announce",
           finding_run("129", "257", "2048"), "matmul.wgmma_stream_k"}}},
        wgmma_stream_k_rule, stage_then_launch<stage_half_rows, launch_last_store_after_announce_staged>},
       InputPrecision::fp16, stage_half_rows, launch_last_store_after_announce_staged},
      {{{"matmul", "cluster_local_release", seed004, "-",
         "PLANTED: rung 37 whose consumers free a ring slot in their own block only: the peer's "
         "producer may multicast a later k-step's half of B into a slot this block has not read "
         "yet. With two clusters (256 x 512 x 512, the clusters forced) every run and all four "
         "sanitizers passed on the H100; with the GPU full of clusters (256 x 51200 x 512, 200 "
         "pairs of tiles, where the rung runs them) the blocks of a pair drift apart and the "
         "exactness check fails.",
         Role::planted,
         {{Checker::oracle, "", "", finding_run("256", "51200", "512"),
           "matmul.wgmma_multicast"}}},
        wgmma_multicast_rule, stage_then_launch<stage_half_rows, launch_cluster_local_release_staged>},
       InputPrecision::fp16, stage_half_rows, launch_cluster_local_release_staged},
      {{{"matmul", "relaxed_piece_ticket", seed003, "-",
         "PLANTED: rung 29 whose sharers take a shared tile's ticket with a relaxed add: nothing "
         "orders a piece's stores before the ticket, so the last ticket's holder can add a stale "
         "piece. Every test and all four sanitizers pass it on the H100; the perturbation build lands "
         "an unpublished store after the ticket, and the tile comes out wrong.",
         Role::planted,
         {{Checker::perturbation, "", "perturb-relaxed-piece-ticket",
           finding_run("2110", "1021", "144"), "matmul.stream_k"}}},
        whole_tiles_from_sm80<stream_k_tile>, launch_relaxed_piece_ticket}},
  };
  return variants;
}

}  // namespace

std::span<const Variant> variants() { return table(); }

void Variant::stage_inputs(const Args& args, cudaStream_t stream) const {
  if (stage == nullptr) return;
  if (const std::string rule = unsupported(args.shape); !rule.empty())
    throw std::invalid_argument(info.id() + ": " + rule);
  stage(args, stream);
  KL_CUDA_CHECK(cudaGetLastError());
}

void Variant::launch_kernel(const Args& args, cudaStream_t stream) const {
  if (launch_staged == nullptr) return launch(args, stream);
  if (const std::string rule = unsupported(args.shape); !rule.empty())
    throw std::invalid_argument(info.id() + ": " + rule);
  launch_staged(args, stream);
  KL_CUDA_CHECK(cudaGetLastError());
}

}  // namespace kl::matmul

namespace kl::imatmul {
namespace {

constexpr const char* seed004 = "004_f92a7ab1d28b5b9a.txt";

std::string square(const Shape& s) {
  if (s.n < 1) return "n must be >= 1, got " + std::to_string(s.n);
  if (s.n > INT_MAX / s.n) return "n*n must fit in an int (the kernels index with int), got n=" + std::to_string(s.n);
  if (s.n > (std::int64_t{1} << 17)) return "n must be at most 2^17 (sums of 100*100*n stay in int32)";
  return "";
}

const std::vector<Variant>& table() {
  static const std::vector<Variant> variants = {
      {{{"imatmul", "cpu_oracle", "-", "CPU reference",
         "Variant 0: the triple loop in int64 on the host; every int kernel must match exactly.",
         Role::reference, {}},
        square, launch_cpu_oracle}},
      {{{"imatmul", "naive", seed004, "naiveMatMul",
         "One thread per element with `if (row < N && col < N)`: 16x16 blocks cover any n.",
         Role::teaching, {}},
        square, launch_naive}},
      {{{"imatmul", "tiled_16", seed004, "tiledMatMul",
         "16x16 shared tiles with range checks on every load: any n, exact.", Role::teaching, {}},
        square, launch_tiled}},
  };
  return variants;
}

}  // namespace

std::span<const Variant> variants() { return table(); }

}  // namespace kl::imatmul
