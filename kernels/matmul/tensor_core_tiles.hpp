// The tensor-core rungs (files 30..33) multiply FP16 copies of A and B, as cublasGemmEx does,
// and compute whole tiles only: their kernels carry no edge guards. Staging writes the FP16
// copies once, zero-padded to whole tiles (the padding adds only zeros to every dot product),
// into scratch; the bench stages before it times, so only the kernel is timed, as for GemmEx.
// A shape of whole tiles with a 32-byte-aligned C (the bench's 4096^3 and 8192^3) writes the
// caller's C directly; any other computes a padded C whose m x n corner is copied back.
#pragma once

#include "sgemm_whole_tiles.hpp"

#include <cuda_fp16.h>

namespace kl::matmul {

// A rung's kernel launch on row-major FP16 A (m x k), B (k x n) and FP32 C (m x n), whole tiles.
using HalfTileLaunch = void (*)(int m, int n, int k, const __half* a, const __half* b, float* c, cudaStream_t);

// Rounds A and B to FP16 (as __float2half_rn) into zero-padded whole-tile scratch copies.
void stage_half_tiles(const Args& args, cudaStream_t stream, TileShape tile);
// Runs `launch` on the copies stage_half_tiles wrote for the same shape and tile.
void launch_half_tiles(const Args& args, cudaStream_t stream, TileShape tile, HalfTileLaunch launch);

}  // namespace kl::matmul
