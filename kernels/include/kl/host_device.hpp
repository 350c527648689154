// KL_HOST_DEVICE: a function both the kernels and the host code (planners, host tests) call, such
// as the stream-K and split-K plans: __host__ __device__ under nvcc, nothing for the host compiler.
#pragma once

#if defined(__CUDACC__)
#define KL_HOST_DEVICE __host__ __device__
#else
#define KL_HOST_DEVICE
#endif
