// The tensor-core rungs (files 30..33) multiply FP16 copies of A and B, as cublasGemmEx does,
// and compute whole tiles only: their kernels carry no edge guards. Staging writes the FP16
// copies once, zero-padded to whole tiles (the padding adds only zeros to every dot product),
// into scratch; the bench stages before it times, so only the kernel is timed, as for GemmEx.
// A shape of whole tiles with a 32-byte-aligned C (the bench's 4096^3 and 8192^3) writes the
// caller's C directly; any other computes a padded C whose m x n corner is copied back.
#pragma once

#include "sgemm_whole_tiles.hpp"

#include <cuda_fp16.h>

#include <cstdint>

namespace kl::matmul {

// A rung's kernel launch on row-major FP16 A (m x k), B (k x n) and FP32 C (m x n), whole tiles.
using HalfTileLaunch = void (*)(int m, int n, int k, const __half* a, const __half* b, float* c, cudaStream_t);

// Rounds A and B to FP16 (as __float2half_rn) into zero-padded whole-tile scratch copies.
void stage_half_tiles(const Args& args, cudaStream_t stream, TileShape tile);
// Runs `launch` on the copies stage_half_tiles wrote for the same shape and tile.
void launch_half_tiles(const Args& args, cudaStream_t stream, TileShape tile, HalfTileLaunch launch);

// Rung 36 reads A and B through TMA's bounds (the copy engine fills zeros past the edges), so its
// FP16 copies keep A's and B's own sizes; only each row is padded to a multiple of 8 halves, as
// a TMA row pitch must be a multiple of 16 bytes. Pitches count elements.
struct HalfRows {
  __half* a = nullptr;
  __half* b = nullptr;
  std::int64_t a_pitch = 0, b_pitch = 0;
};
void stage_half_rows(const Args& args, cudaStream_t stream);
// The copies stage_half_rows writes for this shape.
HalfRows staged_half_rows(const Shape& s);

}  // namespace kl::matmul
