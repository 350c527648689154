// Teaches: a spinlock on a __shared__ semaphore with atomicCAS, kept as the seed writes it. Since
// Volta (sm_70) independent thread scheduling lets the lock holder run while its warp-mates
// spin, so it completes; before Volta the spinning threads starved the holder forever.
// Seed: 004_f92a7ab1d28b5b9a.txt, kernel `deadlockExample`. Added: the watchdog check in the
// spin loop, a counter in the critical section so the test can see the lock excluded, and the
// perturbation points (kl/perturb.cuh) where the lock is taken and given back.
#include "launchers.hpp"

#include "kl/perturb_points.cuh"
#include "kl/watchdog.cuh"

namespace kl::sync {
namespace {

__global__ void deadlockExample(int* protected_count_out, WatchdogView watchdog) {
    __shared__ int semaphore;
    __shared__ int protected_count;  // the work the lock protects: a plain read-modify-write
    semaphore=0;
    if (threadIdx.x == 0) protected_count = 0;
    __syncthreads();
    while (true) {
        int prev=atomicCAS(&semaphore,0,1);
        if (prev==0) {
            // critical section. The fences order the count with the semaphore: without them
            // the next holder could read a stale count.
            __threadfence_block();
            KL_PERTURB_POINT("the lock is taken");
            volatile int& count = protected_count;
            count = count + 1;
            __threadfence_block();
            KL_PERTURB_POINT("the lock is given back");
            semaphore=0;
            break;
        }
        if (kl::watchdog_expired(watchdog)) break;  // give up instead of hanging
    }
    __syncthreads();
    // Equals blockDim.x only if every thread entered the critical section, one at a time.
    if (threadIdx.x == 0) protected_count_out[blockIdx.x] = protected_count;
}

}  // namespace

const void* spinlock_seed_kernel() { return reinterpret_cast<const void*>(&deadlockExample); }

void launch_spinlock_seed(const Args& args, cudaStream_t stream) {
  deadlockExample<<<static_cast<unsigned>(args.shape.blocks), args.shape.block, 0, stream>>>(args.out,
                                                                                            args.watchdog);
}

}  // namespace kl::sync
