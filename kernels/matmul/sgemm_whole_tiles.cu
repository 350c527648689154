// Zero-padded staging for the SGEMM ladder (see sgemm_whole_tiles.hpp).
#include "sgemm_whole_tiles.hpp"

#include "launchers.hpp"
#include "shape_rules.hpp"

#include "kl/cuda_check.hpp"
#include "kl/grid.hpp"

#include <climits>
#include <cstdint>

namespace kl::matmul {
namespace {

// Copies a rows x cols row-major matrix into the top-left corner of a zeroed padded one.
void copy_into_padded(const float* src, std::int64_t rows, std::int64_t cols, float* dst, std::int64_t padded_rows,
                      std::int64_t padded_cols, cudaStream_t stream) {
  const auto f = sizeof(float);
  KL_CUDA_CHECK(cudaMemsetAsync(dst, 0, static_cast<std::size_t>(padded_rows * padded_cols) * f, stream));
  KL_CUDA_CHECK(cudaMemcpy2DAsync(dst, static_cast<std::size_t>(padded_cols) * f, src, static_cast<std::size_t>(cols) * f,
                                  static_cast<std::size_t>(cols) * f, static_cast<std::size_t>(rows),
                                  cudaMemcpyDeviceToDevice, stream));
}

}  // namespace

PaddedShape padded_to_tiles(const Shape& s, TileShape tile) {
  const auto round_up = [](std::int64_t x, int multiple) { return ceil_div(x, multiple) * multiple; };
  return {round_up(s.m, tile.bm), round_up(s.n, tile.bn), round_up(s.k, tile.bk)};
}

void copy_corner_back(const float* padded_c, std::int64_t padded_n, float* c, const Shape& s, cudaStream_t stream) {
  const auto f = sizeof(float);
  KL_CUDA_CHECK(cudaMemcpy2DAsync(c, static_cast<std::size_t>(s.n) * f, padded_c, static_cast<std::size_t>(padded_n) * f,
                                  static_cast<std::size_t>(s.n) * f, static_cast<std::size_t>(s.m),
                                  cudaMemcpyDeviceToDevice, stream));
}

std::string whole_tiles_violation(const Shape& s, TileShape tile) {
  const auto [m, n, k] = padded_to_tiles(s, tile);
  if (m * k > INT_MAX || k * n > INT_MAX || m * n > INT_MAX)
    return "m*k, k*n and m*n rounded up to whole " + std::to_string(tile.bm) + "x" + std::to_string(tile.bn) + "x" +
           std::to_string(tile.bk) + " tiles must fit in an int (the kernels index with int)";
  if (m / tile.bm > 65535)
    return "m must be at most 65535*" + std::to_string(tile.bm) + " (grid y limit), got " + std::to_string(s.m);
  return "";
}

void launch_whole_tiles(const Args& args, cudaStream_t stream, TileShape tile, WholeTileLaunch launch) {
  const Shape& s = args.shape;
  const auto [m, n, k] = padded_to_tiles(s, tile);
  // The kernels read and write 16 bytes at a time (float4, 16-byte cp.async): the caller's
  // matrices go to them directly only where each starts on a 16-byte boundary; a float offset
  // (a sub-matrix, a pointer past a header) goes through the aligned copies below.
  const auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  if (m == s.m && n == s.n && k == s.k && aligned(args.a) && aligned(args.b) && aligned(args.c)) {
    launch(static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), args.a, args.b, args.c, stream);
    return;
  }
  const auto bytes = [](std::int64_t rows, std::int64_t cols) { return static_cast<std::size_t>(rows * cols) * 4; };
  auto* a = static_cast<float*>(scratch(ScratchSlot::padded_a, bytes(m, k)));
  auto* b = static_cast<float*>(scratch(ScratchSlot::padded_b, bytes(k, n)));
  auto* c = static_cast<float*>(scratch(ScratchSlot::padded_c, bytes(m, n)));
  copy_into_padded(args.a, s.m, s.k, a, m, k, stream);
  copy_into_padded(args.b, s.k, s.n, b, k, n, stream);
  launch(static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), a, b, c, stream);
  KL_CUDA_CHECK(cudaGetLastError());
  copy_corner_back(c, n, args.c, s, stream);
}

}  // namespace kl::matmul
