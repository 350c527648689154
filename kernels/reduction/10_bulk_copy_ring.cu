// Teaches (beyond the seeds): the last percent of read bandwidth, and a single launch whose
// finish costs no more than a kernel without one.
//  - Bulk copies: one thread asks the copy engine (cp.async.bulk, the TMA's one-dimensional form)
//    for a whole 32 KiB chunk, which lands in shared memory and is counted on an mbarrier
//    (expect_tx / complete_tx). Three chunks in flight per block, two blocks an SM: ~25 MB in
//    flight on an H100, and no load instructions from the other threads. At 2^28 on the H100
//    (standalone runs, x CUB): 32 KiB x 3 stages 1.020, x 6 1.019, x 4 1.016; 16 KiB x 4 1.013;
//    8 KiB x 8 0.997; rung 09's 16-byte loads 0.999. An L2 evict-first hint on the copies: 0.977.
//  - The ring: stage s holds chunk k while chunks k+1, k+2 are in flight; every thread adds its
//    part of the stage, a barrier says all are done with it, and thread 0 refills it. Only when
//    every block has chunks to pipeline: below ~2 M elements on an H100 the rung launches rung
//    09's grid of 16-byte loads instead (no ring set-up, no shared memory, 16 elements a thread).
//    At 2^16 that grid reads 53-54 GB/s; the ring's 32 KiB chunks, one a block, 47-49.
//  - The finish: one atomicAdd per block onto the output, which block 0 zeroes in the same
//    launch. Block 0 then release-stores the launch's number into a flag, and every other block
//    acquire-loads the flag before its add, so no add lands before the zero. No cudaMemset, no
//    second kernel, no ticket and no second read of partials (rung 09's last-block finish): at
//    2^16 the launch ends ~1 us sooner (4.9 against 5.9 us), and sooner than grid_stride's memset
//    and kernel (5.2 us). The price: the float sum's order varies between runs.
// Needs compute capability 9.0 (cp.async.bulk); elsewhere the variant says it does not apply.
// Every wait is time-limited (10 s, then __trap), so a broken ring or a missing zero traps
// instead of hanging.
// Seed: 004_f92a7ab1d28b5b9a.txt (the ladder this climbs past); PTX ISA sections on
// cp.async.bulk and mbarrier.
// Planted beside it, each the same kernels with one ordering step removed: every test and all
// four sanitizers pass them on the H100, the perturbation build catches them.
//  - reduction.add_before_zero: blocks add without waiting for the flag. Block 0 zeroes the
//    output first thing while the others are still reading, so the zero comes first nearly
//    always; when block 0 starts late, the zero wipes out sums already added.
//  - reduction.relaxed_zero_flag: the flag is stored relaxed, so nothing orders the zero before
//    it; a waiting block can see the flag, add, and have its sum wiped by the late zero.
#include "vector_sum.cuh"
#include "launchers.hpp"
#include "bulk_copy_ring.hpp"

#include "kl/cuda_check.hpp"
#include "kl/device_facts.hpp"
#include "kl/grid.hpp"
#include "kl/mbarrier.cuh"
#include "kl/perturb.cuh"
#include "kl/reduction.hpp"
#include "kl/watchdog.cuh"

#include <cuda/atomic>

#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace kl::reduction {
namespace {

constexpr int ring_stages = 3;
constexpr int chunk_bytes = static_cast<int>(plan::bulk_chunk_elements) * 4;  // 32 KiB
constexpr int ring_bytes = ring_stages * chunk_bytes;                          // dynamic shared memory
constexpr unsigned long long wait_limit_ns = 10'000'000'000ull;

// The number of the launch whose block 0 has zeroed its output (0 before the first launch). The
// host numbers launches 1, 2, ...; the flag holds the previous launch's number until block 0
// stores this one's. Two launches of this rung must not overlap (different streams at once).
__device__ unsigned int zeroed_launch = 0;

// One thread: arm the stage's barrier for chunk_bytes and start the copy that completes it.
__device__ __forceinline__ void fetch_chunk(std::uint32_t stage, const void* chunk, std::uint32_t bar) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  mbarrier::arrive_expect_bytes(bar, chunk_bytes);
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(stage),
               "l"(chunk), "r"(chunk_bytes), "r"(bar)
               : "memory");
#else
  __trap();  // not built for this GPU: bulk_copy_ring_unavailable() keeps the launcher away
#endif
}

// The finish's ordering: the rung's, or one of the planted twins' (header).
enum class Finish { rung, add_before_zero, relaxed_zero_flag };
constexpr Finish rung_finish = Finish::rung;
// Every block but 0 waits for the flag before its add.
__host__ __device__ constexpr bool waits_for_zero(Finish f) { return f != Finish::add_before_zero; }
// The flag's store: release publishes the zero before it.
__host__ __device__ constexpr cuda::memory_order flag_order(Finish f) {
  return f == Finish::relaxed_zero_flag ? cuda::memory_order_relaxed : cuda::memory_order_release;
}

// Block 0, first thing: zero the output, then say so with this launch's number.
template <class T, Finish finish>
__device__ __forceinline__ void zero_output_in_block_0(T* out, unsigned int launch) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  perturb::Publisher publish;
  publish.store(out, T(0));
  publish.store_flag(&zeroed_launch, launch, flag_order(finish));
}

// Every block but 0 waits until block 0 has zeroed this launch's output.
__device__ void wait_for_zeroed_output(unsigned int launch) {
  cuda::atomic_ref<unsigned int, cuda::thread_scope_device> zeroed(zeroed_launch);
  if (zeroed.load(cuda::memory_order_acquire) == launch) return;
  const unsigned long long start = globaltimer_ns();
  for (unsigned visit = 1; zeroed.load(cuda::memory_order_acquire) != launch; ++visit) {
    KL_PERTURB_POINT_AT("waiting for the zeroed output", visit);
    if (globaltimer_ns() - start > wait_limit_ns) __trap();
  }
}

// The block's total onto the zeroed output: one atomicAdd from thread 0.
template <class T, Finish finish>
__device__ __forceinline__ void add_block_total(T thread_total, T* out, unsigned int launch) {
  const T total = block_sum(thread_total);
  if (threadIdx.x != 0) return;
  if (waits_for_zero(finish) && blockIdx.x != 0) wait_for_zeroed_output(launch);
  KL_PERTURB_POINT("a block adds its total");
  atomicAdd(out, total);
}

// Small n: rung 09's loads (in + head 16-byte aligned, head <= n), this rung's finish. A grid of
// one block stores its total instead: the zero's release fence would hold thread 0's warp before
// its loads for nothing (at 2^12 the sum read 89% of CUB with it, the issue's bar being 90%).
template <class T, Finish finish>
__global__ void direct_sum(const T* in, T* out, long long n, int head, unsigned int launch) {
  KL_PERTURB_ENTRY();
  if (gridDim.x == 1) {
    const T total = block_sum(thread_sum(in, n, head));
    if (threadIdx.x == 0) *out = total;
    return;
  }
  zero_output_in_block_0<T, finish>(out, launch);
  add_block_total<T, finish>(thread_sum(in, n, head), out, launch);
}

// Large n: the chunks through the ring, the rest read directly. in + head is 16-byte aligned,
// head <= n; the whole chunks outnumber the blocks. blockDim.x is a power of two in 32..1024.
template <class T, Finish finish>
__global__ void __launch_bounds__(1024) bulk_ring_sum(const T* in, T* out, long long n, int head, unsigned int launch) {
  using V = typename Vec4<T>::type;
  extern __shared__ __align__(128) unsigned char ring[];
  __shared__ __align__(8) unsigned long long stage_full[ring_stages];
  KL_PERTURB_ENTRY();
  zero_output_in_block_0<T, finish>(out, launch);
  const T* body = in + head;
  const long long chunks = (n - head) / plan::bulk_chunk_elements;
  auto bar = [&](int s) { return shared_address(&stage_full[s]); };
  auto fetch = [&](int s, long long chunk) {
    fetch_chunk(shared_address(ring + s * chunk_bytes), body + chunk * plan::bulk_chunk_elements, bar(s));
  };
  if (threadIdx.x == 0) {
    for (int s = 0; s < ring_stages; ++s) mbarrier::init(bar(s), 1);
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");  // visible to the copy engine
  }
  __syncthreads();
  if (threadIdx.x == 0)
    for (int s = 0; s < ring_stages; ++s)
      if (const long long c = blockIdx.x + static_cast<long long>(s) * gridDim.x; c < chunks) fetch(s, c);

  // The rest (head, then the tail after the last whole chunk), read directly while chunks fly.
  T sum = T(0);
  const long long tail_start = head + chunks * plan::bulk_chunk_elements;
  const long long rest = head + (n - tail_start);
  const long long threads = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < rest; i += threads)
    sum += in[i < head ? i : tail_start + (i - head)];

  int k = 0;  // chunks this block has consumed: stage k % ring_stages, phase k / ring_stages
  for (long long c = blockIdx.x; c < chunks; c += gridDim.x, ++k) {
    const int s = k % ring_stages;
    mbarrier::wait(bar(s), (k / ring_stages) & 1, wait_limit_ns);  // a wrong byte count would wait forever
    KL_PERTURB_POINT_AT("a ring stage is full", k);
    const V* stage = reinterpret_cast<const V*>(ring + s * chunk_bytes);
#pragma unroll 4
    for (int j = threadIdx.x; j < chunk_bytes / 16; j += blockDim.x) add_vector(sum, stage[j]);
    __syncthreads();  // every thread is done with stage s before the copy engine refills it
    const long long next = c + static_cast<long long>(ring_stages) * gridDim.x;
    if (threadIdx.x == 0 && next < chunks) {
      KL_PERTURB_POINT_AT("a ring stage is refilled", k);
      asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");  // the reads above before the async write
      fetch(s, next);
    }
  }

  __syncthreads();  // block_sum's shared memory after the last barrier above
  add_block_total<T, finish>(sum, out, launch);
}

// Blocks of `block` threads the GPU holds at once of the ring kernel (with its shared memory,
// whose limit is raised first) or of the direct one. The planted twins launch the same grids
// (require_twin_fits checks that they hold as many).
template <class T>
int co_resident_blocks(bool ring, int block) {
  if (!ring) return co_resident_capacity(reinterpret_cast<const void*>(&direct_sum<T, rung_finish>), block);
  KL_CUDA_CHECK(cudaFuncSetAttribute(bulk_ring_sum<T, rung_finish>, cudaFuncAttributeMaxDynamicSharedMemorySize, ring_bytes));
  return co_resident_capacity(reinterpret_cast<const void*>(&bulk_ring_sum<T, rung_finish>), block, ring_bytes);
}

// The same, cached per kernel, dtype and block: the occupancy calculator costs microseconds, a
// launch's own order, and the ring kernel's shared-memory limit is raised on the first ask,
// before any launch of it. Every block resident is what makes the flag wait safe: no waiting
// block can keep block 0 from running.
std::int64_t resident_blocks(bool ring, Dtype dtype, int block) {
  static std::array<std::atomic<std::int64_t>, 2 * 2 * 11> cache{};
  const int log2_block = std::bit_width(static_cast<unsigned>(block)) - 1;
  const int slot_index = (ring ? 22 : 0) + (dtype == Dtype::i32 ? 11 : 0) + log2_block;
  std::atomic<std::int64_t>& slot = cache[static_cast<std::size_t>(slot_index)];
  if (const std::int64_t known = slot.load(); known > 0) return known;
  slot.store(dtype == Dtype::i32 ? co_resident_blocks<int>(ring, block) : co_resident_blocks<float>(ring, block));
  return slot.load();
}

TestCap ring_grid_cap{"cap_ring_grid"};

// The blocks the ring's grid may have: those resident at once, or fewer where a test capped them.
std::int64_t ring_blocks(Dtype dtype, int block) { return ring_grid_cap.applied(resident_blocks(true, dtype, block)); }

}  // namespace

plan::Summation bulk_copy_ring_plan(const Shape& shape) {
  return plan::bulk_copy_ring(shape.n, shape.block, ring_blocks(shape.dtype, shape.block),
                              resident_blocks(false, shape.dtype, shape.block));
}

bool bulk_copy_ring_streams(const Shape& shape) {
  return plan::bulk_ring_streams(shape.n, ring_blocks(shape.dtype, shape.block));
}
std::int64_t bulk_copy_ring_blocks(const Shape& shape) { return bulk_copy_ring_plan(shape).blocks; }

int cap_ring_grid(int blocks) { return ring_grid_cap.set(blocks); }

std::string bulk_copy_ring_unavailable() {
  static const std::string reason = []() -> std::string {
    const KernelImage image = kernel_image(reinterpret_cast<const void*>(&bulk_ring_sum<float, rung_finish>));
    if (!image.has_gpu) return "needs a CUDA GPU of compute capability 9.0 or newer (none usable here)";
    if (image.cc_major >= 9 && image.loaded && image.binary_version >= 90) return "";
    return "does not apply: cp.async.bulk needs code built for and run on compute capability 9.0 or newer; this GPU "
           "is " + std::to_string(image.cc_major) + "." + std::to_string(image.cc_minor) +
           (image.loaded ? ", the kernel's code is for " + std::to_string(image.binary_version / 10) + "." +
                               std::to_string(image.binary_version % 10)
                         : ", no code for it was built");
  }();
  return reason;
}

namespace {

// The ring kernel's shared-memory limit, raised once per kernel before its first launch (the
// rung's is raised already when its capacity is first asked, co_resident_blocks).
template <class T, Finish finish>
void allow_ring_shared_memory() {
  static const bool raised = [] {
    KL_CUDA_CHECK(cudaFuncSetAttribute(bulk_ring_sum<T, finish>, cudaFuncAttributeMaxDynamicSharedMemorySize, ring_bytes));
    return true;
  }();
  (void)raised;
}

// A planted twin launches the rung's grid, every block of which must be resident at once (the flag
// wait): a twin whose kernel held fewer blocks than the rung's would deadlock for that reason
// alone, so it is refused. Asked at every launch of a twin (never timed), never for the rung.
template <class T, Finish finish>
void require_twin_fits(bool ring, int block) {
  if constexpr (finish != Finish::rung) {
    const void* kernel = ring ? reinterpret_cast<const void*>(&bulk_ring_sum<T, finish>)
                              : reinterpret_cast<const void*>(&direct_sum<T, finish>);
    const int twin = co_resident_capacity(kernel, block, ring ? ring_bytes : 0);
    const int rung = co_resident_blocks<T>(ring, block);
    if (twin < rung)
      throw std::logic_error("a planted twin of rung 10 holds " + std::to_string(twin) + " blocks of " +
                             std::to_string(block) + " at once, the rung " + std::to_string(rung) +
                             ": its grid would not fit");
  }
}

// The launches' numbers: one count for the rung and its twins, which share the flag, so a launch
// never takes the number the flag holds from the one before.
std::atomic<unsigned int> finish_launches{0};

template <Finish finish>
void launch_with_finish(const Args& args, cudaStream_t stream) {
  const unsigned int launch = ++finish_launches;
  const plan::Summation grid = bulk_copy_ring_plan(args.shape);
  const bool ring = bulk_copy_ring_streams(args.shape);
  const auto blocks = static_cast<unsigned>(grid.blocks);
  const auto n = static_cast<long long>(args.shape.n);
  with_dtype(args, [&](auto in, auto out) {
    using T = std::remove_const_t<std::remove_pointer_t<decltype(in)>>;
    const auto head = static_cast<int>(head_to_16_bytes(in, args.shape.n));
    if (ring) allow_ring_shared_memory<T, finish>();
    require_twin_fits<T, finish>(ring, args.shape.block);
    if (ring) {
      bulk_ring_sum<T, finish><<<blocks, args.shape.block, ring_bytes, stream>>>(in, out, n, head, launch);
    } else {
      direct_sum<T, finish><<<blocks, args.shape.block, 0, stream>>>(in, out, n, head, launch);
    }
  });
}

}  // namespace

void launch_bulk_copy_ring(const Args& args, cudaStream_t stream) { launch_with_finish<Finish::rung>(args, stream); }
void launch_add_before_zero(const Args& args, cudaStream_t stream) {
  launch_with_finish<Finish::add_before_zero>(args, stream);
}
void launch_relaxed_zero_flag(const Args& args, cudaStream_t stream) {
  launch_with_finish<Finish::relaxed_zero_flag>(args, stream);
}

}  // namespace kl::reduction
