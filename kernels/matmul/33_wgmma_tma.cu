// Teaches (beyond the seeds): how Hopper reaches its tensor-core peak, which mma.sync (rung 32)
// cannot: the warpgroup MMA and the tensor memory accelerator, both sm_90a/sm_90 features.
//  - wgmma.mma_async: four warps (a warpgroup) issue one 64x256x16 product whose operands the
//    tensor cores read straight from shared memory, described by 64-bit matrix descriptors
//    (address, the strides between 8-row core-matrix groups, the swizzle); the 64x256 FP32
//    accumulator lives in the warpgroup's registers, 128 per thread. No ldmatrix: the tensor
//    cores read shared memory themselves, asynchronously, so issuing is cheap.
//  - TMA (cp.async.bulk.tensor): one thread copies a whole 2-D box of A or B from global to
//    shared memory, laid out in the 128-byte swizzle wgmma reads, and the copy engine counts
//    the bytes that arrived on an mbarrier (expect_tx / complete_tx). The tensor map that
//    describes each matrix is built on the host and passed as a __grid_constant__ parameter.
//  - Grouped rasterisation: blocks walk C down columns of 16-tile-row groups, so the blocks
//    resident at once reuse each other's A and B panels in L2 (raster() says what it is worth).
//  - Warp specialisation: warpgroup 0 only produces (one thread issues the TMA copies into a
//    4-stage ring, waiting on each slot's "empty" barrier), warpgroups 1 and 2 only consume
//    (each waits on a slot's "full" barrier, runs four wgmmas on its 64 rows of the 128x256
//    block tile, and frees the slot once the next stage's wgmmas are issued). setmaxnreg moves
//    registers from the producer (40) to the consumers (232).
//  - B is read as the caller stores it, k-major rows of n (the "MN-major" operand, wgmma's
//    transpose bit), as cuBLAS reads it: no transposed copy.
// Built for sm_90a in its own translation unit (CMakeLists.txt); on any other GPU the variant
// says it does not apply (wgmma_tma_unavailable). Every mbarrier wait has a time limit, so a
// broken pipeline traps instead of hanging. The perturbation build (kl/perturb.cuh) delays the
// producer before it fills a slot and a consumer before it frees one.
// Seed: 004_f92a7ab1d28b5b9a.txt section 11 (cublasGemmEx's tensor cores); PTX ISA 8.x, sections
// on wgmma, the matrix descriptor, cp.async.bulk.tensor and mbarrier.
#include "launchers.hpp"
#include "tensor_core_tiles.hpp"

#include "kl/check.hpp"
#include "kl/device_facts.hpp"
#include "kl/mbarrier.cuh"
#include "kl/perturb.cuh"

#include <cuda.h>
#include <cudaTypedefs.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace kl::matmul {
namespace {

constexpr int block_m = 128, block_n = 256, block_k = 64;
constexpr int stages = 4;
constexpr int consumers = 2;                 // warpgroups 1 and 2, 64 rows of the block tile each
constexpr int threads = 128 * (1 + consumers);
constexpr int box_n = 64;                    // B's TMA box: 64 halves = one 128-byte swizzle row
constexpr int a_stage_bytes = block_m * block_k * 2;  // 16 KiB
constexpr int b_stage_bytes = block_k * block_n * 2;  // 32 KiB: four 64x64 boxes
constexpr int b_box_bytes = block_k * box_n * 2;      // 8 KiB
constexpr int ring_bytes = stages * (a_stage_bytes + b_stage_bytes);
constexpr int smem_bytes = ring_bytes + 2 * stages * 8 + 1024;  // + barriers + 1024-byte alignment slack
constexpr unsigned long long wait_limit_ns = 10'000'000'000ull;   // 10 s: no healthy stage waits that long

// ---- TMA

__device__ __forceinline__ void tma_load(std::uint32_t dst, const CUtensorMap* map, int x, int y, std::uint32_t bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n" ::"r"(
          dst),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(x), "r"(y), "r"(bar)
      : "memory");
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

struct Tile {
  int row, col;
};

// The block's tile of C. The grid is 1-D and walks C in groups of group_rows tile rows, down
// each column of the group before the next column: the ~132 blocks resident at once then share
// A and B panels in a near-square patch, so each panel is read from DRAM about once per patch.
// Row by row instead, the blocks of one wave at 8192^3 span four tile rows and all 32 columns
// and read every panel of B once per wave: 0.69-0.76x GemmEx there against 0.98-0.99x grouped
// (H100; groups of 8 and 16 rows measured within 0.5% of each other).
constexpr int group_rows = 16;
__device__ __forceinline__ Tile raster(int m, int n) {
  const int tiles_m = m / block_m, tiles_n = n / block_n;
  const int id = static_cast<int>(blockIdx.x);
  const int per_group = group_rows * tiles_n;
  const int first_row = id / per_group * group_rows;
  const int rows = min(group_rows, tiles_m - first_row);
  const int in_group = id % per_group;
  return {(first_row + in_group % rows) * block_m, in_group / rows * block_n};
}

__global__ void __launch_bounds__(threads, 1)
    wgmma_tma(int m, int n, int k, const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
              float* c) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ unsigned char smem_raw[];
  const std::uint32_t base = (shared_address(smem_raw) + 1023) & ~1023u;
  const std::uint32_t a_ring = base, b_ring = base + stages * a_stage_bytes;
  const std::uint32_t full = base + ring_bytes, empty = full + stages * 8;
  const int k_tiles = k / block_k;
  const Tile tile_of_block = raster(m, n);
  const int block_row = tile_of_block.row, block_col = tile_of_block.col;
  const int warpgroup = static_cast<int>(threadIdx.x) / 128;

  if (threadIdx.x == 0) {
    for (int s = 0; s < stages; ++s) {
      mbarrier::init(full + 8 * s, 1);           // the producer's expect_tx arrival; TMA completes the bytes
      mbarrier::init(empty + 8 * s, consumers);  // one arrival per consumer warpgroup
    }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");  // visible to the copy engine
  }
  __syncthreads();

  if (warpgroup == 0) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
    if (threadIdx.x != 0) return;
    for (int tile = 0; tile < k_tiles; ++tile) {
      const int slot = tile % stages;
      if (tile >= stages)  // the consumers have freed the slot
        mbarrier::wait(empty + 8 * slot, (tile / stages - 1) % 2, wait_limit_ns);
      KL_PERTURB_POINT_AT("the producer fills a slot", tile);
      mbarrier::arrive_expect_bytes(full + 8 * slot, a_stage_bytes + b_stage_bytes);
      tma_load(a_ring + slot * a_stage_bytes, &a_map, tile * block_k, block_row, full + 8 * slot);
      for (int box = 0; box < block_n / box_n; ++box)
        tma_load(b_ring + slot * b_stage_bytes + box * b_box_bytes, &b_map, block_col + box * box_n, tile * block_k,
                 full + 8 * slot);
    }
    return;
  }

  asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
  const int consumer = warpgroup - 1;
  float d[128];
#pragma unroll
  for (int i = 0; i < 128; ++i) d[i] = 0.0f;
  for (int tile = 0; tile < k_tiles; ++tile) {
    const int slot = tile % stages;
    mbarrier::wait(full + 8 * slot, (tile / stages) % 2, wait_limit_ns);
    // A: 128 rows of 128 bytes, 8-row groups 1024 bytes apart; this consumer's 64 rows start
    // 64 * 128 bytes in; a k16 step is 32 bytes along the (swizzled) row.
    // B: four 64(n)x64(k) boxes 8 KiB apart (the leading offset), each 64 k-rows of 128 bytes,
    // 8-row groups 1024 bytes apart (the stride offset); a k16 step is 16 rows, 2048 bytes.
    const std::uint32_t a_tile = a_ring + slot * a_stage_bytes + consumer * 64 * 128;
    const std::uint32_t b_tile = b_ring + slot * b_stage_bytes;
    wgmma_fence();
#pragma unroll
    for (int step = 0; step < block_k / 16; ++step)
      wgmma_64x256x16(d, descriptor(a_tile + step * 32, 16, 1024), descriptor(b_tile + step * 2048, b_box_bytes, 1024));
    wgmma_commit();
    wgmma_wait<1>(d);  // the previous stage's wgmmas are done reading its slot
    if (tile > 0 && threadIdx.x % 128 == 0) {
      KL_PERTURB_POINT_AT("a consumer frees a slot", tile);
      mbarrier::arrive(empty + 8 * ((tile - 1) % stages));
    }
  }
  wgmma_wait<0>(d);

  // The accumulator layout: warp w of the warpgroup holds rows 16w + lane/4 and 16w + lane/4 + 8;
  // d[4j .. 4j+3] are columns 8j + 2(lane%4) and the next of those two rows.
  const int warp = static_cast<int>(threadIdx.x % 128) / 32, lane = static_cast<int>(threadIdx.x) % 32;
  const int row = block_row + consumer * 64 + warp * 16 + lane / 4;
#pragma unroll
  for (int j = 0; j < block_n / 8; ++j) {
    const int col = block_col + j * 8 + 2 * (lane % 4);
    *reinterpret_cast<float2*>(&c[row * n + col]) = make_float2(d[4 * j], d[4 * j + 1]);
    *reinterpret_cast<float2*>(&c[(row + 8) * n + col]) = make_float2(d[4 * j + 2], d[4 * j + 3]);
  }
#elif defined(__CUDA_ARCH__)
  __trap();  // compiled for a GPU without sm_90a's instructions: never silently leave C unwritten
#endif
}

// ---- host

PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder() {
  static const PFN_cuTensorMapEncodeTiled_v12000 encode = [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    KL_CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || fn == nullptr)
      throw std::runtime_error("matmul.wgmma_tma: the driver has no cuTensorMapEncodeTiled (CUDA 12.0 or newer needed)");
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
  }();
  return encode;
}

// A row-major rows x cols FP16 matrix, copied in boxes of box_rows x box_cols with the 128-byte
// swizzle (box_cols * 2 bytes must be 128).
CUtensorMap tensor_map(const __half* matrix, int rows, int cols, int box_rows, int box_cols) {
  CUtensorMap map{};
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
  const cuuint64_t row_bytes[1] = {static_cast<cuuint64_t>(cols) * 2};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(box_cols), static_cast<cuuint32_t>(box_rows)};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult r = tensor_map_encoder()(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, const_cast<__half*>(matrix), dims,
                                          row_bytes, box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                          CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                          CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw std::runtime_error("matmul.wgmma_tma: cuTensorMapEncodeTiled failed with CUresult " + std::to_string(r));
  return map;
}

void launch_kernel(int m, int n, int k, const __half* a, const __half* b, float* c, cudaStream_t stream) {
  const CUtensorMap a_map = tensor_map(a, m, k, block_m, block_k);
  const CUtensorMap b_map = tensor_map(b, k, n, block_k, box_n);
  KL_CUDA_CHECK(cudaFuncSetAttribute(wgmma_tma, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes));
  const unsigned blocks = static_cast<unsigned>((m / block_m) * (n / block_n));
  wgmma_tma<<<blocks, threads, smem_bytes, stream>>>(m, n, k, a_map, b_map, c);
}

}  // namespace

const TileShape wgmma_tma_tile{block_m, block_n, block_k};

std::string wgmma_tma_unavailable() {
  static const std::string reason = []() -> std::string {
    const KernelImage image = kernel_image(reinterpret_cast<const void*>(&wgmma_tma));
    if (!image.has_gpu) return "needs a CUDA GPU that runs sm_90a code (none usable here)";
    if (image.loaded) return "";
    return "does not apply: built for sm_90a (wgmma, setmaxnreg), which runs only on compute capability 9.0; this "
           "GPU is " + std::to_string(image.cc_major) + "." + std::to_string(image.cc_minor);
  }();
  return reason;
}

void launch_wgmma_tma_staged(const Args& args, cudaStream_t stream) {
  launch_half_tiles(args, stream, wgmma_tma_tile, launch_kernel);
}

}  // namespace kl::matmul
