// What the GPU rungs share: the seed's integrand, the unrolled per-thread loop (rung 03's
// lesson, reused by 04 and 05) and the warp sum by shuffles (rung 04's, reused by 05).
#pragma once

namespace kl::riemann {

// The seed's f for section 10.3's measurements: e^x sin(x). The CPU oracle (check.cpp) writes
// the same expression.
__device__ inline double f(double x) { return exp(x) * sin(x); }

// One thread's share of the left sum: a grid-stride loop taking four intervals per trip, so the
// loop test and increment are paid once per four evaluations. The seed's `int` index is 64-bit
// here: i + 4 * stride cannot overflow for any n <= 2^31 - 1.
__device__ inline double unrolledPartialSum(double a, double dx, long long N) {
  const long long stride = static_cast<long long>(blockDim.x) * gridDim.x;
  long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  double sum = 0.0;
  for (; i + 3 * stride < N; i += 4 * stride) {
    sum += f(a + i * dx) * dx;
    sum += f(a + (i + stride) * dx) * dx;
    sum += f(a + (i + 2 * stride) * dx) * dx;
    sum += f(a + (i + 3 * stride) * dx) * dx;
  }
  for (; i < N; i += stride) sum += f(a + i * dx) * dx;
  return sum;
}

// Sums a full warp's values in registers; lane 0 receives the total. Every lane must call it
// (the block is whole warps: the registry admits powers of two from 32).
__device__ inline double warpSum(double v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

}  // namespace kl::riemann
