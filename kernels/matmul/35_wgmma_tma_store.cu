// Teaches (beyond the seeds): the epilogue overlapped with the next tile's main loop. In rung 34
// the consumers store their 128x256 FP32 tile to global memory with 8-byte stores while the
// tensor cores idle; here each consumer writes its 64x256 half into shared memory, 64 columns at
// a time (two 64x32 boxes in the 128-byte swizzle, so the 32 lanes of a store land in distinct
// banks), and one thread hands each box to TMA (cp.async.bulk.tensor global <- shared): the copy
// engine drains C while the consumer already waits on the next tile's first stage. Before a
// box's staging is written again its previous copy must have read it (cp.async.bulk.wait_group.read),
// and the writes are made visible to the copy engine first (fence.proxy.async). The staging (16 KiB
// a consumer) fits beside the 4-stage ring: 224 KiB of the 227 an H100 block may have. (The
// epilogue's code is hopper_wgmma.cuh's store_c_quarter, which rung 36 uses too.)
// The rest is rung 34: persistent blocks in the grouped tile order, the ring running on across
// tiles, one producer and two consumer warpgroups, wgmma 64x256x16. Every mbarrier wait has a
// time limit; the perturbation build delays the producer before it fills a slot and a consumer
// before it frees one.
// Seed: 004_f92a7ab1d28b5b9a.txt section 11 (cublasGemmEx's tensor cores); PTX ISA 8.x.
#include "launchers.hpp"
#include "tensor_core_tiles.hpp"

#include "kl/check.hpp"
#include "kl/device_facts.hpp"
#include "kl/mbarrier.cuh"

#include "hopper_wgmma.cuh"

#include <cstdint>
#include <cstdlib>
#include <string>

namespace kl::matmul {
namespace {

using namespace hopper;

constexpr int smem_bytes = ring_bytes + consumers * c_staging_bytes + 2 * stages * 8 + 1024;
static_assert(smem_bytes <= 232448, "an H100 block has at most 227 KiB of shared memory");

// Tile `id` of C in rung 33's grouped order (hopper_wgmma.cuh).
__device__ __forceinline__ Tile raster(int id, int m, int n) { return grouped_tile(id, m / block_m, n / block_n); }


// EXPERIMENT: L2 eviction priorities. 8: C's stores evict_first; 9: A and B's loads evict_last;
// 10: both.
__device__ __forceinline__ std::uint64_t l2_policy_evict_first() {
  std::uint64_t p;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;\n" : "=l"(p));
  return p;
}
__device__ __forceinline__ std::uint64_t l2_policy_evict_last() {
  std::uint64_t p;
  asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;\n" : "=l"(p));
  return p;
}
__device__ __forceinline__ void tma_store_hint(const CUtensorMap* map, std::uint32_t src, int x, int y, std::uint64_t pol) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group.L2::cache_hint [%0, {%1, %2}], [%3], %4;\n" ::"l"(
                   reinterpret_cast<std::uint64_t>(map)),
               "r"(x), "r"(y), "r"(src), "l"(pol)
               : "memory");
}
__device__ __forceinline__ void tma_load_hint(std::uint32_t dst, const CUtensorMap* map, int x, int y, std::uint32_t bar,
                                              std::uint64_t pol) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1, {%2, %3}], [%4], %5;\n" ::"r"(
          dst),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(x), "r"(y), "r"(bar), "l"(pol)
      : "memory");
}
__device__ __forceinline__ void fill_slot_hint(const Ring& r, int step, const CUtensorMap* a_map, const CUtensorMap* b_map,
                                               int row, int col, int kt, std::uint64_t pol) {
  const int slot = step % stages;
  if (step >= stages) mbarrier::wait(r.empty + 8 * slot, (step / stages - 1) % 2, wait_limit_ns);
  mbarrier::arrive_expect_bytes(r.full + 8 * slot, a_stage_bytes + b_stage_bytes);
  tma_load_hint(r.a + slot * a_stage_bytes, a_map, kt * block_k, row, r.full + 8 * slot, pol);
  for (int box = 0; box < block_n / box_n; ++box)
    tma_load_hint(r.b + slot * b_stage_bytes + box * b_box_bytes, b_map, col + box * box_n, kt * block_k, r.full + 8 * slot,
                  pol);
}

// EXPERIMENT: epilogue variants. 0 shipped; 1 box double-buffered; 2 no wait_read; 3 no fence;
// 4 no wait no fence; 5 no epilogue.
template <int E>
__device__ __forceinline__ void store_q(const float (&d)[128], int q, int row, int col, int consumer,
                                        std::uint32_t staging, const CUtensorMap* c_map) {
  const int warp = static_cast<int>(threadIdx.x % 128) / 32, lane = static_cast<int>(threadIdx.x) % 32;
  const bool leader = threadIdx.x % 128 == 0;
  const int r0 = warp * 16 + lane / 4;
  if (leader && E != 2 && E != 4) bulk_wait_read();
  named_barrier(1 + consumer, 128);
#pragma unroll
  for (int j = 8 * q; j < 8 * q + 8; ++j) {
    const int c = j * 8 + 2 * (lane % 4) - 64 * q;
    const int box = c / c_box_cols, cb = c % c_box_cols;
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int r = r0 + 8 * half;
      const std::uint32_t at = staging + box * c_box_bytes + r * 128 + (((cb / 4) ^ (r % 8)) * 16) + (cb % 4) * 4;
      st_shared_f2(at, d[4 * j + 2 * half], d[4 * j + 2 * half + 1]);
    }
  }
  if (E != 3 && E != 4) fence_proxy_async();
  named_barrier(1 + consumer, 128);
  if (leader && E != 7) {
    if constexpr (E == 8 || E == 10) {
      const std::uint64_t pol = l2_policy_evict_first();
      for (int box = 0; box < 2; ++box)
        tma_store_hint(c_map, staging + box * c_box_bytes, col + 64 * q + box * c_box_cols, row, pol);
    } else {
      for (int box = 0; box < 2; ++box) tma_store(c_map, staging + box * c_box_bytes, col + 64 * q + box * c_box_cols, row);
    }
    bulk_commit();
  }
}
// E6: the staging stores without bank conflicts. A half-warp's 8-byte stores cover rows 0-3 of
// its 16 (lane / 4), each row's four lanes 32 bytes = two 16-byte units; rows 2i and 2i+1 XOR to
// the same two units. Lanes of odd rows store the columns two units over (j ^ 2 within the box)
// in the same instruction, so the 16 lanes land on 8 distinct units.
__device__ __forceinline__ void store_q6(const float (&d)[128], int q, int row, int col, int consumer,
                                         std::uint32_t staging, const CUtensorMap* c_map) {
  const int warp = static_cast<int>(threadIdx.x % 128) / 32, lane = static_cast<int>(threadIdx.x) % 32;
  const bool leader = threadIdx.x % 128 == 0;
  const int r0 = warp * 16 + lane / 4;
  const bool odd = (lane >> 2) & 1;
  // Column j ^ 2's unit is column j's unit with bit 2 flipped: odd rows' XOR gains a 4.
  const int sw = (r0 % 8) ^ (odd ? 4 : 0);
  if (leader) bulk_wait_read();
  named_barrier(1 + consumer, 128);
#pragma unroll
  for (int j = 8 * q; j < 8 * q + 8; ++j) {
    const int jj = j ^ 2;  // the same box, two units over
    const int c = j * 8 + 2 * (lane % 4) - 64 * q;
    const int box = c / c_box_cols, cb = c % c_box_cols;
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int r = r0 + 8 * half;
      const std::uint32_t at = staging + box * c_box_bytes + r * 128 + (((cb / 4) ^ sw) * 16) + (cb % 4) * 4;
      asm volatile(
          "{\n.reg .f32 x, y;\n.reg .pred p;\nsetp.ne.u32 p, %5, 0;\n"
          "selp.f32 x, %1, %3, p;\nselp.f32 y, %2, %4, p;\n"
          "st.shared.v2.f32 [%0], {x, y};\n}\n" ::"r"(at),
          "f"(d[4 * jj + 2 * half]), "f"(d[4 * jj + 2 * half + 1]), "f"(d[4 * j + 2 * half]), "f"(d[4 * j + 2 * half + 1]),
          "r"(static_cast<unsigned>(odd))
          : "memory");
    }
  }
  fence_proxy_async();
  named_barrier(1 + consumer, 128);
  if (leader) {
    for (int box = 0; box < 2; ++box) tma_store(c_map, staging + box * c_box_bytes, col + 64 * q + box * c_box_cols, row);
    bulk_commit();
  }
}
__device__ __forceinline__ void bulk_wait_read1() { asm volatile("cp.async.bulk.wait_group.read 1;\n" ::: "memory"); }
// Box b (32 columns) of the consumer's half into buffer b % 2; each box its own bulk group.
__device__ __forceinline__ void store_box(const float (&d)[128], int b, int row, int col, int consumer,
                                          std::uint32_t staging, const CUtensorMap* c_map) {
  const int warp = static_cast<int>(threadIdx.x % 128) / 32, lane = static_cast<int>(threadIdx.x) % 32;
  const bool leader = threadIdx.x % 128 == 0;
  const int r0 = warp * 16 + lane / 4;
  const std::uint32_t buf = staging + (b % 2) * c_box_bytes;
  if (leader) bulk_wait_read1();
  named_barrier(1 + consumer, 128);
#pragma unroll
  for (int j = 4 * b; j < 4 * b + 4; ++j) {
    const int cb = j * 8 + 2 * (lane % 4) - 32 * b;
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int r = r0 + 8 * half;
      const std::uint32_t at = buf + r * 128 + (((cb / 4) ^ (r % 8)) * 16) + (cb % 4) * 4;
      st_shared_f2(at, d[4 * j + 2 * half], d[4 * j + 2 * half + 1]);
    }
  }
  fence_proxy_async();
  named_barrier(1 + consumer, 128);
  if (leader) {
    tma_store(c_map, buf, col + 32 * b, row);
    bulk_commit();
  }
}

template <int E>
__global__ void __launch_bounds__(threads, 1)
    wgmma_tma_store(int m, int n, int k, const __grid_constant__ CUtensorMap a_map,
                    const __grid_constant__ CUtensorMap b_map, const __grid_constant__ CUtensorMap c_map,
                    long long delay_ns) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  if (delay_ns > 0 && (blockIdx.x & 1)) {  // EXPERIMENT: odd blocks start late
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do { __nanosleep(500); asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); } while (t - t0 < (unsigned long long)delay_ns);
  }
  extern __shared__ unsigned char smem_raw[];
  const std::uint32_t base = (shared_address(smem_raw) + 1023) & ~1023u;
  const std::uint32_t staging = base + ring_bytes;  // consumers' 16 KiB each
  const std::uint32_t full = staging + consumers * c_staging_bytes;
  const Ring ring{base, base + stages * a_stage_bytes, full, full + stages * 8};
  const int k_tiles = k / block_k;
  const int tiles = (m / block_m) * (n / block_n);
  const int warpgroup = static_cast<int>(threadIdx.x) / 128;

  if (threadIdx.x == 0) {
    for (int s = 0; s < stages; ++s) {
      mbarrier::init(ring.full + 8 * s, 1);
      mbarrier::init(ring.empty + 8 * s, consumers);
    }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();

  if (warpgroup == 0) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
    if (threadIdx.x != 0) return;
    int step = 0;  // k-steps issued by this block, over all its tiles
    for (int id = static_cast<int>(blockIdx.x); id < tiles; id += static_cast<int>(gridDim.x)) {
      const Tile t = raster(id, m, n);
      if constexpr (E == 9 || E == 10) {
        const std::uint64_t pol = l2_policy_evict_last();
        for (int kt = 0; kt < k_tiles; ++kt, ++step) fill_slot_hint(ring, step, &a_map, &b_map, t.row, t.col, kt, pol);
      } else {
        for (int kt = 0; kt < k_tiles; ++kt, ++step) fill_slot(ring, step, &a_map, &b_map, t.row, t.col, kt);
      }
    }
    return;
  }

  asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
  const int consumer = warpgroup - 1;
  const bool leader = threadIdx.x % 128 == 0;  // frees slots (one arrival a warpgroup), waits for C's copies
  int step = 0;
  for (int id = static_cast<int>(blockIdx.x); id < tiles; id += static_cast<int>(gridDim.x)) {
    const Tile t = raster(id, m, n);
    float d[128];
    accumulate_tile(d, ring, step, consumer, leader, 0, k_tiles);
    // C through the staging, 64 columns at a time (hopper_wgmma.cuh's epilogue).
if constexpr (E == 1) {
#pragma unroll
      for (int b = 0; b < block_n / 32; ++b)
        store_box(d, b, t.row + consumer * 64, t.col, consumer, staging + consumer * c_staging_bytes, &c_map);
    } else if constexpr (E == 6) {
#pragma unroll
      for (int q = 0; q < block_n / 64; ++q)
        store_q6(d, q, t.row + consumer * 64, t.col, consumer, staging + consumer * c_staging_bytes, &c_map);
    } else if constexpr (E == 5) {
      if (d[0] == -1.25e30f && d[127] == -1.25e30f)
#pragma unroll
        for (int q = 0; q < block_n / 64; ++q)
          store_q<0>(d, q, t.row + consumer * 64, t.col, consumer, staging + consumer * c_staging_bytes, &c_map);
    } else {
#pragma unroll
      for (int q = 0; q < block_n / 64; ++q)
        store_q<E>(d, q, t.row + consumer * 64, t.col, consumer, staging + consumer * c_staging_bytes, &c_map);
    }
  }
  if (leader) bulk_wait_all();  // C written before the block's shared memory goes
#elif defined(__CUDA_ARCH__)
  __trap();  // compiled for a GPU without sm_90a's instructions: never silently leave C unwritten
#endif
}

void launch_kernel(int m, int n, int k, const __half* a, const __half* b, float* c, cudaStream_t stream) {
  const CUtensorMap a_map = tensor_map(a, m, k, block_m, block_k);
  const CUtensorMap b_map = tensor_map(b, k, n, block_k, box_n);
  const CUtensorMap c_map = tensor_map_f32(c, m, n, 64, c_box_cols);
  // One block an SM (the shared memory allows no more): as many as can be resident.
  static const int epi = std::getenv("KL_EPI") ? std::atoi(std::getenv("KL_EPI")) : 0;
  auto go = [&](auto kernel) {
    unsigned blocks = persistent_blocks(reinterpret_cast<const void*>(kernel), threads, smem_bytes,
                                              (m / block_m) * (n / block_n));
    static const unsigned grid_cap = std::getenv("KL_GRID") ? std::atoi(std::getenv("KL_GRID")) : 0;
    static const long long delay = std::getenv("KL_DELAY_NS") ? std::atoll(std::getenv("KL_DELAY_NS")) : 0;
    if (grid_cap > 0 && grid_cap < blocks) blocks = grid_cap;
    kernel<<<blocks, threads, smem_bytes, stream>>>(m, n, k, a_map, b_map, c_map, delay);
  };
  switch (epi) {
    case 1: go(wgmma_tma_store<1>); break;
    case 2: go(wgmma_tma_store<2>); break;
    case 3: go(wgmma_tma_store<3>); break;
    case 4: go(wgmma_tma_store<4>); break;
    case 5: go(wgmma_tma_store<5>); break;
    case 6: go(wgmma_tma_store<6>); break;
    case 7: go(wgmma_tma_store<7>); break;
    case 8: go(wgmma_tma_store<8>); break;
    case 9: go(wgmma_tma_store<9>); break;
    case 10: go(wgmma_tma_store<10>); break;
    default: go(wgmma_tma_store<0>); break;
  }
}

}  // namespace

const TileShape wgmma_tma_store_tile{block_m, block_n, block_k};

std::string wgmma_tma_store_unavailable() {
  static const std::string reason = sm90a_unavailable(reinterpret_cast<const void*>(&wgmma_tma_store<0>));
  return reason;
}

void launch_wgmma_tma_store_staged(const Args& args, cudaStream_t stream) {
  launch_half_tiles(args, stream, wgmma_tma_store_tile, launch_kernel);
}

}  // namespace kl::matmul
