// Zero-padded FP16 staging for the tensor-core rungs (see tensor_core_tiles.hpp).
#include "tensor_core_tiles.hpp"

#include "launchers.hpp"

#include "kl/cuda_check.hpp"
#include "kl/grid.hpp"

#include <cstdint>

namespace kl::matmul {
namespace {

// out (padded_rows x padded_cols) = in (rows x cols) rounded to FP16, zeros elsewhere.
__global__ void to_half_padded(const float* in, long long rows, long long cols, __half* out, long long padded_cols,
                               long long count) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const long long r = i / padded_cols, c = i % padded_cols;
  out[i] = r < rows && c < cols ? __float2half_rn(in[r * cols + c]) : __float2half_rn(0.0f);
}

__half* half_copy(ScratchSlot slot, std::int64_t rows, std::int64_t cols) {
  return static_cast<__half*>(scratch(slot, static_cast<std::size_t>(rows * cols) * sizeof(__half)));
}

void stage_padded(const float* in, std::int64_t rows, std::int64_t cols, __half* out, std::int64_t padded_rows,
                  std::int64_t padded_cols, cudaStream_t stream) {
  constexpr int threads = 256;
  const std::int64_t count = padded_rows * padded_cols;
  to_half_padded<<<static_cast<unsigned>(grid_1d(count, threads)), threads, 0, stream>>>(in, rows, cols, out,
                                                                                         padded_cols, count);
  KL_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void stage_half_tiles(const Args& args, cudaStream_t stream, TileShape tile) {
  const Shape& s = args.shape;
  const PaddedShape p = padded_to_tiles(s, tile);
  stage_padded(args.a, s.m, s.k, half_copy(ScratchSlot::half_a, p.m, p.k), p.m, p.k, stream);
  stage_padded(args.b, s.k, s.n, half_copy(ScratchSlot::half_b, p.k, p.n), p.k, p.n, stream);
}

void launch_half_tiles(const Args& args, cudaStream_t stream, TileShape tile, HalfTileLaunch launch) {
  const Shape& s = args.shape;
  const PaddedShape p = padded_to_tiles(s, tile);
  const __half* a = half_copy(ScratchSlot::half_a, p.m, p.k);
  const __half* b = half_copy(ScratchSlot::half_b, p.k, p.n);
  // WMMA stores need 32-byte-aligned rows; the other rungs' 8-byte stores are satisfied too.
  const bool direct = p.m == s.m && p.n == s.n && reinterpret_cast<std::uintptr_t>(args.c) % 32 == 0;
  if (direct) {
    launch(static_cast<int>(p.m), static_cast<int>(p.n), static_cast<int>(p.k), a, b, args.c, stream);
    KL_CUDA_CHECK(cudaGetLastError());
    return;
  }
  auto* c = static_cast<float*>(scratch(ScratchSlot::padded_c, static_cast<std::size_t>(p.m * p.n) * sizeof(float)));
  launch(static_cast<int>(p.m), static_cast<int>(p.n), static_cast<int>(p.k), a, b, c, stream);
  KL_CUDA_CHECK(cudaGetLastError());
  copy_corner_back(c, p.n, args.c, s, stream);
}

void stage_half_rows(const Args& args, cudaStream_t stream) {
  const Shape& s = args.shape;
  const HalfRows h = staged_half_rows(s);
  stage_padded(args.a, s.m, s.k, h.a, s.m, h.a_pitch, stream);
  stage_padded(args.b, s.k, s.n, h.b, s.k, h.b_pitch, stream);
}

HalfRows staged_half_rows(const Shape& s) {
  HalfRows h;
  h.a_pitch = (s.k + 7) / 8 * 8;  // halves: 16 bytes
  h.b_pitch = (s.n + 7) / 8 * 8;
  h.a = half_copy(ScratchSlot::half_a, s.m, h.a_pitch);
  h.b = half_copy(ScratchSlot::half_b, s.k, h.b_pitch);
  return h;
}

}  // namespace kl::matmul
