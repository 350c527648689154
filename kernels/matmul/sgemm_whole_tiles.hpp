// The SGEMM ladder's rungs (files 20..26) compute whole tiles only: their kernels carry no edge
// guards, so the inner loop stays branch-free. launch_whole_tiles() makes any m, n, k >= 1 work:
// a shape that is not a multiple of the tile runs on zero-padded copies of A and B (the padding
// adds only zeros to every dot product) and the m x n corner of the padded C is copied back.
// A shape of whole tiles (the bench's 4096^3) runs on the caller's buffers directly.
#pragma once

#include "kl/matmul_args.hpp"

#include <cuda_runtime_api.h>

#include <cstdint>

namespace kl::matmul {

struct TileShape {
  int bm = 0;  // rows of C per block
  int bn = 0;  // columns of C per block
  int bk = 0;  // depth of one shared-memory stage
};

// The kernel launch of a rung on row-major A (m x k), B (k x n), C (m x n), all whole tiles.
using WholeTileLaunch = void (*)(int m, int n, int k, const float* a, const float* b, float* c, cudaStream_t);


// The shape rounded up to whole tiles in m, n and k.
struct PaddedShape {
  std::int64_t m = 0, n = 0, k = 0;
};
PaddedShape padded_to_tiles(const Shape& s, TileShape tile);

// Copies the s.m x s.n corner of a padded row-major C (padded_n columns) into the caller's C.
void copy_corner_back(const float* padded_c, std::int64_t padded_n, float* c, const Shape& s, cudaStream_t stream);

void launch_whole_tiles(const Args& args, cudaStream_t stream, TileShape tile, WholeTileLaunch launch);

}  // namespace kl::matmul
