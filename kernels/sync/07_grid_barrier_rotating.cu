// Teaches: a grid barrier used again and again, as an iterative kernel needs one each round. A
// counter cannot be reset while a block may still be watching it: a block leaves the spin only
// when its own load sees the count complete, which can be long after another block saw it. So
// the rounds rotate through three counters, and block 0, arriving at round r, resets the counter
// round r + 1 will use, last used in round r - 2: every block has arrived at round r - 1 by then,
// so every block has left round r - 2's spin. The grid is launched cooperatively, so every block
// is resident (04's lesson). Each round every block computes (a chain of dependent steps, about
// 10 us on the H100, standing in for a solver's round), publishes a slot and, past the barrier,
// counts the slots of that round it sees.
// Planted beside it (sync.grid_barrier_early_reset): two counters, so block 0 resets the one
// round r - 1 used while a late block may still spin on it: that block never sees it complete
// and the grid deadlocks (the watchdog ends it). On the H100 block 0's round of work (~10 us)
// outlasts every spinner's last look (~1 us): every test and all four sanitizers pass it; the
// perturbation build delays a spinner between looks past that and the grid deadlocks.
// Seed: 004_f92a7ab1d28b5b9a.txt (`deadlockExample`), the grid barrier of 03 made reusable.
#include "launchers.hpp"

#include "kl/perturb_points.cuh"
#include "kl/watchdog.cuh"

#include <cuda/atomic>

namespace kl::sync {
namespace {

using Counter = cuda::atomic_ref<unsigned, cuda::thread_scope_device>;

// Steps of a round's computation: ~10 us of dependent shift-xor-multiplies on an H100.
constexpr int round_work_steps = 2048;

// The round's computation: a chain of dependent steps in every thread, whose results the warps
// fold into the block's result word (stored, never checked: it stands in for a solver's output,
// and a result nobody stores is work the compiler deletes; ptxas removed a chain kept only by an
// empty asm). Not a multiply-add chain: the compiler folds an affine recurrence into one step.
__device__ __forceinline__ void compute_round(int round, unsigned* block_result) {
  unsigned x = threadIdx.x ^ (blockIdx.x << 10) ^ static_cast<unsigned>(round);
  for (int i = 0; i < round_work_steps; ++i) x = (x ^ (x >> 15)) * 0x2C1B3C6Du + 1u;
  const unsigned lanes = __activemask();
  x = __reduce_xor_sync(lanes, x);
  if (threadIdx.x % 32 == 0) atomicXor(block_result, x);
}

// Thread 0 of each block arrives at round `round`'s barrier and waits for every block; the other
// threads wait at __syncthreads(). Returns false (in every thread) if the watchdog ended the
// wait; then *last_count holds the count thread 0 saw last.
template <int counters>
__device__ bool grid_sync(unsigned* count, int round, WatchdogView watchdog, unsigned* last_count) {
  __shared__ bool gave_up;
  __syncthreads();  // the block's writes of this round come before thread 0's arrival
  if (threadIdx.x == 0) {
    gave_up = false;
    if (blockIdx.x == 0) {
      KL_PERTURB_POINT_AT("block 0 resets the counter of round r + 1", round);
      Counter(count[(round + 1) % counters]).store(0u, cuda::memory_order_relaxed);
    }
    KL_PERTURB_POINT_AT("a block arrives at the barrier", round);
    Counter arrived(count[round % counters]);
    arrived.fetch_add(1u, cuda::memory_order_release);
    for (unsigned look = 0; (*last_count = arrived.load(cuda::memory_order_acquire)) < gridDim.x; ++look) {
      KL_PERTURB_POINT_AT("a block waits at the barrier", look);
      if (watchdog_expired(watchdog)) {
        gave_up = true;
        break;
      }
    }
  }
  __syncthreads();
  return !gave_up;
}

// `counters` counters at scratch[0..counters), then two rounds' slots of gridDim.x words each,
// then one result word per block, all zero before the launch. seen[b]: the fewest slots of one round block b saw published, all
// blocks when every barrier held; a block whose wait the watchdog ended reports the count it saw
// last instead.
template <int counters>
__global__ void rotating_barrier(int* seen, unsigned* scratch, WatchdogView watchdog) {
  KL_PERTURB_ENTRY();
  unsigned* count = scratch;
  unsigned* slots = scratch + barrier_counter_words;
  unsigned* results = slots + 2 * gridDim.x;
  unsigned fewest = gridDim.x;
  for (int round = 0; round < barrier_rounds; ++round) {
    compute_round(round, &results[blockIdx.x]);
    // Two buffers: a block writing round r + 2's slot has passed round r + 1's barrier, which
    // every block reached after reading round r's slots.
    unsigned* slot = slots + (round % 2) * gridDim.x;
    if (threadIdx.x == 0) {
      KL_PERTURB_POINT_AT("a block publishes its slot", round);
      slot[blockIdx.x] = static_cast<unsigned>(round + 1);
    }
    unsigned last_count = 0;
    if (!grid_sync<counters>(count, round, watchdog, &last_count)) {
      fewest = last_count;
      break;
    }
    // The slots of this round the block sees, counted by __syncthreads_count a block's width at a
    // time. __ldcg reads L2: the L1 may still hold this buffer's slots from round r - 2.
    unsigned matched = 0;
    for (unsigned base = 0; base < gridDim.x; base += blockDim.x) {
      const unsigned b = base + threadIdx.x;
      matched += static_cast<unsigned>(__syncthreads_count(b < gridDim.x && __ldcg(&slot[b]) == round + 1u));
    }
    fewest = min(fewest, matched);
  }
  if (threadIdx.x == 0) seen[blockIdx.x] = static_cast<int>(fewest);
}

}  // namespace

const void* grid_barrier_rotating_kernel() { return reinterpret_cast<const void*>(&rotating_barrier<3>); }
const void* grid_barrier_early_reset_kernel() { return reinterpret_cast<const void*>(&rotating_barrier<2>); }

void launch_grid_barrier_rotating(const Args& args, cudaStream_t stream) {
  launch_cooperatively(grid_barrier_rotating_kernel(), "sync.grid_barrier_rotating", args, stream);
}

void launch_grid_barrier_early_reset(const Args& args, cudaStream_t stream) {
  launch_cooperatively(grid_barrier_early_reset_kernel(), "sync.grid_barrier_early_reset", args, stream);
}

}  // namespace kl::sync
