// What the Hopper rungs (33_wgmma_tma.cu .. 37_wgmma_multicast.cu) share: the tile and ring sizes,
// the grouped tile order, the TMA copies in and out (37's multicast and cluster barriers too), C's
// epilogue through shared memory (35-37), the shared-memory matrix descriptor, the 64x256x16
// warpgroup MMA with its fences, the ring's steps (the producer's for 33-36, a consumer's for the
// persistent 34-37), and what the host builds: tensor maps for A, B and C, and the operands
// read through TMA's bounds (36, 37).
// sm_90a only: included by translation units built for it.
#pragma once

#include "launchers.hpp"
#include "tensor_core_tiles.hpp"

#include "kl/cuda_check.hpp"
#include "kl/device_facts.hpp"
#include "kl/mbarrier.cuh"
#include "kl/perturb_points.cuh"

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>

namespace kl::matmul::hopper {

// ---- Tiles and ring (rung 33 teaches them)

constexpr int block_m = 128, block_n = 256, block_k = 64;  // a block's tile of C; a k-step's depth
constexpr int stages = 4;
constexpr int consumers = 2;                 // warpgroups 1 and 2, 64 rows of the block tile each
constexpr int threads = 128 * (1 + consumers);
constexpr int box_n = 64;                    // B's TMA box: 64 halves = one 128-byte swizzle row
constexpr int a_stage_bytes = block_m * block_k * 2;  // 16 KiB
constexpr int b_stage_bytes = block_k * block_n * 2;  // 32 KiB: four 64x64 boxes
constexpr int b_box_bytes = block_k * box_n * 2;      // 8 KiB
constexpr int ring_bytes = stages * (a_stage_bytes + b_stage_bytes);
constexpr unsigned long long wait_limit_ns = 10'000'000'000ull;  // 10 s: no healthy stage waits that long

struct Tile {
  int row, col;  // its first row and column in C
};

// Tile `id` of C's tiles_m x tiles_n tiles. The ids walk C in groups of group_rows tile rows,
// down each column of the group before the next column: the ~132 blocks at work at once then
// share A and B panels in a near-square patch, so each panel is read from DRAM about once per
// patch. Row by row instead, the blocks of one wave at 8192^3 span four tile rows and all 32
// columns and read every panel of B once per wave: 0.69-0.76x GemmEx there against 0.98-0.99x
// grouped (rung 33 on the H100; groups of 8 and 16 rows measured within 0.5% of each other).
constexpr int group_rows = 16;
// The same walk over cells of cell_m x cell_n (rung 37's pairs of tiles), rows_per_group cell
// rows a group.
__device__ __forceinline__ Tile grouped_cell(int id, int cells_m, int cells_n, int rows_per_group, int cell_m,
                                             int cell_n) {
  const int per_group = rows_per_group * cells_n;
  const int first_row = id / per_group * rows_per_group;
  const int rows = min(rows_per_group, cells_m - first_row);
  const int in_group = id % per_group;
  return {(first_row + in_group % rows) * cell_m, in_group / rows * cell_n};
}
__device__ __forceinline__ Tile grouped_tile(int id, int tiles_m, int tiles_n) {
  return grouped_cell(id, tiles_m, tiles_n, group_rows, block_m, block_n);
}

// ---- TMA

__device__ __forceinline__ void tma_load(std::uint32_t dst, const CUtensorMap* map, int x, int y, std::uint32_t bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n" ::"r"(
          dst),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(x), "r"(y), "r"(bar)
      : "memory");
}

// ---- thread-block clusters (rung 37)

// This block's rank in its cluster.
__device__ __forceinline__ unsigned cluster_rank() {
  unsigned rank = 0;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(rank));
  return rank;
}
// Every thread of every block of the cluster: what each did before is seen by all after
// (mbarrier inits before a peer signals them; a block's last remote arrival before its peer exits).
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;\n" ::: "memory");
}
// TMA load of one box into the same shared-memory offset of every block in `blocks` (a bit per
// cluster rank); each destination's mbarrier at offset `bar` receives the box's bytes.
__device__ __forceinline__ void tma_load_multicast(std::uint32_t dst, const CUtensorMap* map, int x, int y,
                                                   std::uint32_t bar, std::uint16_t blocks) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
      " [%0], [%1, {%2, %3}], [%4], %5;\n" ::"r"(dst),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(x), "r"(y), "r"(bar), "h"(blocks)
      : "memory");
}
// One arrival on the mbarrier at offset `bar` of the cluster's block `rank` (this one included).
// The default semantics (release at CTA scope): what it orders is the wgmma reads of a ring slot,
// complete (wgmma.wait_group) before the arrival, against the next TMA write of that slot. A
// release at cluster scope costs a MEMBAR.ALL.GPU per arrival, which made rung 37 2.1x slower than
// rung 35 (ncu: 407 us at 4096^3, tensor pipe 37%).
__device__ __forceinline__ void arrive_in_block(std::uint32_t bar, unsigned rank) {
  asm volatile(
      "{\n .reg .b32 remote;\n mapa.shared::cluster.u32 remote, %0, %1;\n"
      " mbarrier.arrive.shared::cluster.b64 _, [remote];\n}\n" ::"r"(bar),
      "r"(rank)
      : "memory");
}

// C's copy out (rung 35): a box of shared memory to global memory through the copy engine, in
// the current bulk group; commit closes the group; wait_read waits until every committed group has
// read its shared memory (the staging may be written again), wait_all until they are complete.
__device__ __forceinline__ void tma_store(const CUtensorMap* map, std::uint32_t src, int x, int y) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];\n" ::"l"(
                   reinterpret_cast<std::uint64_t>(map)),
               "r"(x), "r"(y), "r"(src)
               : "memory");
}
__device__ __forceinline__ void bulk_commit() { asm volatile("cp.async.bulk.commit_group;\n" ::: "memory"); }
__device__ __forceinline__ void bulk_wait_read() { asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory"); }
__device__ __forceinline__ void bulk_wait_all() { asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory"); }
// Orders this thread's generic-proxy writes to shared memory before later async-proxy (TMA) reads.
__device__ __forceinline__ void fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }
// A barrier among `count` threads of the block (a warpgroup: 128), numbered `id` (1..15; 0 is
// __syncthreads'), so one warpgroup waits for itself alone.
__device__ __forceinline__ void named_barrier(int id, int count) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(count) : "memory");
}
__device__ __forceinline__ void st_shared_f2(std::uint32_t at, float x, float y) {
  asm volatile("st.shared.v2.f32 [%0], {%1, %2};\n" ::"r"(at), "f"(x), "f"(y) : "memory");
}

// ---- C's epilogue (rungs 35 and 36)

// Each consumer's 64 x 256 half of C leaves 64 columns at a time through 16 KiB of staging: two
// 64x32 FP32 boxes in the 128-byte swizzle (so the 32 lanes of a store land in distinct banks),
// each handed to TMA.
constexpr int c_box_cols = 32;                    // 128 bytes of FP32: one swizzle row
constexpr int c_box_bytes = 64 * c_box_cols * 4;  // 8 KiB: 64 rows of a consumer's half
constexpr int c_staging_bytes = 2 * c_box_bytes;  // 64 columns at a time, per consumer

// Columns 64q .. 64q+63 of consumer `consumer`'s 64 x 256 half of C (its rows from `row`, its
// columns from `col`), from the accumulators through the consumer's staging and two TMA stores
// (TMA writes only the part inside C). Before the staging is written again, the previous boxes'
// copies must have read it (wait_read), and the writes are made visible to the copy engine first
// (fence.proxy.async). The consumer's 128 threads meet at named barrier 1 + consumer before and
// after the staging's writes: a caller may rely on that to order its own earlier accesses (rung
// 36's fix-up, its partials' loads). Called with q a constant (unrolled loops): d's indices must be.
__device__ __forceinline__ void store_c_quarter(const float (&d)[128], int q, int row, int col, int consumer,
                                                std::uint32_t staging, const CUtensorMap* c_map) {
  const int warp = static_cast<int>(threadIdx.x % 128) / 32, lane = static_cast<int>(threadIdx.x) % 32;
  const bool leader = threadIdx.x % 128 == 0;  // the thread that issues and waits for the copies
  // Rung 33's accumulator layout: warp w holds rows 16w + lane/4 and 16w + lane/4 + 8 of this
  // consumer's 64; d[4j .. 4j+3] are columns 8j + 2(lane%4) and the next, of those two rows.
  const int r0 = warp * 16 + lane / 4;
  if (leader) bulk_wait_read();  // the previous boxes' copies have read the staging
  named_barrier(1 + consumer, 128);
#pragma unroll
  for (int j = 8 * q; j < 8 * q + 8; ++j) {
    const int c = j * 8 + 2 * (lane % 4) - 64 * q;  // 0..63 within this quarter
    const int box = c / c_box_cols, cb = c % c_box_cols;
    // 128-byte swizzle: the 16-byte unit cb/4 of row r sits at unit (cb/4) ^ (r % 8).
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int r = r0 + 8 * half;
      const std::uint32_t at = staging + box * c_box_bytes + r * 128 + (((cb / 4) ^ (r % 8)) * 16) + (cb % 4) * 4;
      st_shared_f2(at, d[4 * j + 2 * half], d[4 * j + 2 * half + 1]);
    }
  }
  fence_proxy_async();  // these writes, seen by the copy engine
  named_barrier(1 + consumer, 128);
  if (leader) {
    for (int box = 0; box < 2; ++box) tma_store(c_map, staging + box * c_box_bytes, col + 64 * q + box * c_box_cols, row);
    bulk_commit();
  }
}

// ---- wgmma

// The shared-memory matrix descriptor: start address, leading and stride byte offsets (all in
// 16-byte units) and the 128-byte swizzle mode (1 in bits 62..63). Tiles are 1024-byte aligned,
// so the base-offset field stays 0.
__device__ __forceinline__ std::uint64_t descriptor(std::uint32_t address, std::uint32_t leading, std::uint32_t stride) {
  return static_cast<std::uint64_t>((address & 0x3FFFF) >> 4) | static_cast<std::uint64_t>(leading >> 4) << 16 |
         static_cast<std::uint64_t>(stride >> 4) << 32 | 1ull << 62;
}

// d (64x256 FP32, this warpgroup's registers) += A (64x16, k-major) * B (16x256, n-major).
__device__ __forceinline__ void wgmma_64x256x16(float (&d)[128], std::uint64_t a, std::uint64_t b) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, 1, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
      "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
      "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
      "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
      "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
      "}, %128, %129, p, 1, 1, 0, 1;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
        "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
        "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
        "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
        "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
        "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
        "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
        "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
      : "l"(a), "l"(b));
}

__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int pending>
__device__ __forceinline__ void wgmma_wait(float (&d)[128]) {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(pending) : "memory");
  // The accumulators are outputs of the asynchronous wgmma: tell the compiler they changed here.
#pragma unroll
  for (int i = 0; i < 128; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

// ---- The ring's steps: rung 33's ring, which the persistent rungs (34-36) run on across a
// block's tiles

// Shared addresses of the ring: A's slots, B's slots, and each slot's `full` and `empty` mbarriers
// (8 bytes each).
struct Ring {
  std::uint32_t a, b, full, empty;
};

// The shared memory of the rungs that stage C (35-37), from a 1024-byte boundary (the 128-byte
// swizzle's alignment; the slack is in staged_smem_bytes): the ring's slots, the consumers'
// staging (16 KiB each), then each slot's `full` and `empty` barriers.
constexpr int staged_smem_bytes = ring_bytes + consumers * c_staging_bytes + 2 * stages * 8 + 1024;
static_assert(staged_smem_bytes <= 232448, "an H100 block has at most 227 KiB of shared memory");
struct StagedSmem {
  Ring ring;
  std::uint32_t staging;
};
__device__ __forceinline__ StagedSmem staged_smem(const unsigned char* raw) {
  const std::uint32_t base = (shared_address(raw) + 1023) & ~1023u;
  const std::uint32_t staging = base + ring_bytes;
  const std::uint32_t full = staging + consumers * c_staging_bytes;
  return {{base, base + stages * a_stage_bytes, full, full + stages * 8}, staging};
}

// The producer's k-step `step` of the block (in the persistent rungs counted over all its tiles;
// in rung 33 its one tile's k-tile): slot step % stages gets A's box at (row, k-step kt) and B's
// panel at (k-step kt, col), once the consumers have freed the slot's previous fill (the slot's
// phase is step / stages % 2). A box overhanging A or B arrives zero-filled and counts its full
// size. (A step, not a tile's loop: with the loop in here, ptxas scheduled rung 36's whole-tile
// kernel differently.)
__device__ __forceinline__ void fill_slot(const Ring& r, int step, const CUtensorMap* a_map, const CUtensorMap* b_map,
                                          int row, int col, int kt) {
  const int slot = step % stages;
  if (step >= stages) mbarrier::wait(r.empty + 8 * slot, (step / stages - 1) % 2, wait_limit_ns);
  KL_PERTURB_POINT_AT("the producer fills a slot", step);
  mbarrier::arrive_expect_bytes(r.full + 8 * slot, a_stage_bytes + b_stage_bytes);
  tma_load(r.a + slot * a_stage_bytes, a_map, kt * block_k, row, r.full + 8 * slot);
  for (int box = 0; box < block_n / box_n; ++box)
    tma_load(r.b + slot * b_stage_bytes + box * b_box_bytes, b_map, col + box * box_n, kt * block_k, r.full + 8 * slot);
}

// A consumer's k-steps [k_begin, k_end) of a tile into d (zeroed first), its 64 rows of each slot
// (the descriptors below), `step` counted as the producer counts it. Each k-step's wgmmas are
// committed before the previous step's are waited for, then the previous step's slot is freed
// (one call of free_slot(slot) a warpgroup: its `leader`'s); the last slot is freed once all are
// done. Rungs 34-36 free a slot in their own block; rung 37 in both blocks of its cluster.
template <class FreeSlot>
__device__ __forceinline__ void accumulate_tile(float (&d)[128], const Ring& r, int& step, int consumer, bool leader,
                                                int k_begin, int k_end, FreeSlot free_slot) {
#pragma unroll
  for (int i = 0; i < 128; ++i) d[i] = 0.0f;
  for (int kt = k_begin; kt < k_end; ++kt, ++step) {
    const int slot = step % stages;
    mbarrier::wait(r.full + 8 * slot, (step / stages) % 2, wait_limit_ns);
    // A: 128 rows of 128 bytes, 8-row groups 1024 bytes apart; this consumer's 64 rows start
    // 64 * 128 bytes in; a k16 step is 32 bytes along the (swizzled) row.
    // B: four 64(n)x64(k) boxes 8 KiB apart (the leading offset), each 64 k-rows of 128 bytes,
    // 8-row groups 1024 bytes apart (the stride offset); a k16 step is 16 rows, 2048 bytes.
    const std::uint32_t a_tile = r.a + slot * a_stage_bytes + consumer * 64 * 128;
    const std::uint32_t b_tile = r.b + slot * b_stage_bytes;
    wgmma_fence();
#pragma unroll
    for (int s = 0; s < block_k / 16; ++s)
      wgmma_64x256x16(d, descriptor(a_tile + s * 32, 16, 1024), descriptor(b_tile + s * 2048, b_box_bytes, 1024));
    wgmma_commit();
    wgmma_wait<1>(d);  // the previous step's wgmmas are done reading its slot
    if (kt > k_begin && leader) {
      KL_PERTURB_POINT_AT("a consumer frees a slot", step);
      free_slot((step - 1) % stages);
    }
  }
  wgmma_wait<0>(d);
  if (leader) free_slot((step - 1) % stages);  // the tile's last slot: read
}
__device__ __forceinline__ void accumulate_tile(float (&d)[128], const Ring& r, int& step, int consumer, bool leader,
                                                int k_begin, int k_end) {
  accumulate_tile(d, r, step, consumer, leader, k_begin, k_end,
                  [&r](int slot) { mbarrier::arrive(r.empty + 8 * slot); });
}

// ---- host

inline PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder() {
  static const PFN_cuTensorMapEncodeTiled_v12000 encode = [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    KL_CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || fn == nullptr)
      throw std::runtime_error("matmul (sm_90a rungs): the driver has no cuTensorMapEncodeTiled (CUDA 12.0 or newer needed)");
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
  }();
  return encode;
}

// A row-major rows x cols matrix of `element_bytes`-byte elements, rows `pitch` elements apart
// (0: cols; pitch * element_bytes must be a multiple of 16), copied in boxes of box_rows x
// box_cols with the 128-byte swizzle (box_cols * element_bytes must be 128). A box that overhangs
// the matrix loads zeros there and stores only its part inside (rung 36 relies on both).
inline CUtensorMap swizzled_map(CUtensorMapDataType type, int element_bytes, const void* matrix, int rows, int cols,
                                int box_rows, int box_cols, std::int64_t pitch = 0) {
  CUtensorMap map{};
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
  const cuuint64_t row_bytes[1] = {static_cast<cuuint64_t>(pitch == 0 ? cols : pitch) * static_cast<cuuint64_t>(element_bytes)};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(box_cols), static_cast<cuuint32_t>(box_rows)};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult r = tensor_map_encoder()(&map, type, 2, const_cast<void*>(matrix), dims, row_bytes, box,
                                          element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                          CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw std::runtime_error("matmul (sm_90a rungs): cuTensorMapEncodeTiled failed with CUresult " + std::to_string(r));
  return map;
}
// Why a kernel built for sm_90a cannot run here ("" when it can), as each Hopper rung's rule says.
inline std::string sm90a_unavailable(const void* kernel) {
  const KernelImage image = kernel_image(kernel);
  if (!image.has_gpu) return "needs a CUDA GPU that runs sm_90a code (none usable here)";
  if (image.loaded) return "";
  return "does not apply: built for sm_90a (wgmma, setmaxnreg), which runs only on compute capability 9.0; this "
         "GPU is " + std::to_string(image.cc_major) + "." + std::to_string(image.cc_minor);
}

// Allows `kernel` `smem_bytes` of dynamic shared memory (more than the default 48 KiB needs
// asking), once per kernel: before its first launch or occupancy query.
inline void allow_shared_memory(const void* kernel, int smem_bytes) {
  static std::set<const void*> allowed;
  if (allowed.insert(kernel).second)
    KL_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes));
}

// A persistent kernel's grid: as many blocks as can be resident with `smem_bytes` of dynamic
// shared memory (asked once per kernel, which is allowed that much first), at most one a tile,
// and at most a test's cap (capped_persistent_grid).
inline unsigned persistent_blocks(const void* kernel, int threads, int smem_bytes, int tiles) {
  static std::map<const void*, int> resident;  // per kernel
  auto it = resident.find(kernel);
  if (it == resident.end()) {
    allow_shared_memory(kernel, smem_bytes);
    it = resident.emplace(kernel, co_resident_capacity(kernel, threads, static_cast<std::size_t>(smem_bytes))).first;
  }
  return static_cast<unsigned>(std::max(1, std::min(tiles, capped_persistent_grid(it->second))));
}

// A and B: FP16, boxes 64 halves wide.
inline CUtensorMap tensor_map(const __half* matrix, int rows, int cols, int box_rows, int box_cols,
                              std::int64_t pitch = 0) {
  return swizzled_map(CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, matrix, rows, cols, box_rows, box_cols, pitch);
}
// C: FP32, boxes 32 floats wide.
inline CUtensorMap tensor_map_f32(const float* matrix, int rows, int cols, int box_rows, int box_cols,
                                  std::int64_t pitch = 0) {
  return swizzled_map(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, matrix, rows, cols, box_rows, box_cols, pitch);
}

// A, B and C for the rungs that read and write through TMA's bounds (36, 37): the FP16 copies
// stage_half_rows wrote (A's and B's own sizes, rows padded to 16 bytes), and C itself where TMA
// can store to it (rows 16 bytes apart, 16-byte aligned), else a scratch C of padded rows whose
// m x n corner finish() copies back after the kernel.
struct BoundedOperands {
  CUtensorMap a, b, c;
  float* c_scratch = nullptr;  // C's stand-in, where TMA cannot store to the caller's C
  std::int64_t c_pitch = 0;
  void finish(const Args& args, cudaStream_t stream) const {
    if (c_scratch != nullptr) copy_corner_back(c_scratch, c_pitch, args.c, args.shape, stream);
  }
};
inline BoundedOperands bounded_operands(const Args& args) {
  const Shape& s = args.shape;
  const int m = static_cast<int>(s.m), n = static_cast<int>(s.n), k = static_cast<int>(s.k);
  const HalfRows h = staged_half_rows(s);
  BoundedOperands o{};
  const bool direct = n % 4 == 0 && reinterpret_cast<std::uintptr_t>(args.c) % 16 == 0;
  o.c_pitch = direct ? s.n : (s.n + 3) / 4 * 4;
  if (!direct)
    o.c_scratch = static_cast<float*>(scratch(ScratchSlot::padded_c, static_cast<std::size_t>(s.m * o.c_pitch) * sizeof(float)));
  o.a = tensor_map(h.a, m, k, block_m, block_k, h.a_pitch);
  o.b = tensor_map(h.b, k, n, block_k, box_n, h.b_pitch);
  o.c = tensor_map_f32(direct ? args.c : o.c_scratch, m, n, 64, c_box_cols, o.c_pitch);
  return o;
}

}  // namespace kl::matmul::hopper
