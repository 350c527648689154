// 16-byte shared and global accesses of the SGEMM ladder (rungs 22-26): one float4 per
// instruction. Callers keep the address 16-byte aligned (whole tiles make every row so).
#pragma once

namespace kl::matmul {

__device__ inline float4 load4(const float* p) { return *reinterpret_cast<const float4*>(p); }
__device__ inline void store4(float* p, float4 v) { *reinterpret_cast<float4*>(p) = v; }

}  // namespace kl::matmul
