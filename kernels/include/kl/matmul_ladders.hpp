// The SGEMM ladder beyond the seeds (kernels/matmul/20_*.cu .. 29_sgemm_stream_k.cu): its rungs in
// climbing order and the shapes it is swept over; and the tensor-core ladder (30..33). One list
// for matmul's bench cases (which sweep these rungs over these shapes) and docs/LESSONS.md (which
// tabulates them, bench/lessons/). Host-only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kl::matmul {

struct LadderRung {
  std::string variant;  // matmul registry name
  // What Nsight Compute showed explains the rung's gain over the one before (profile-sgemm,
  // ncu --clock-control none at 4096^3; figures dated in docs/SGEMM_LADDER.md).
  std::string profile;
};

// First the seeds' last rung (tiled_32), which the ladder climbs from, then rungs 20..28.
const std::vector<LadderRung>& sgemm_ladder();

struct SweepShape {
  std::int64_t m = 0, n = 0, k = 0;
  std::string tag() const;  // "m1024_n8192_k4096": the result key's last part
  std::string text() const;  // "m=1024 n=8192 k=4096"
};

// The shapes besides the bench's 4096^3 (square 1024..8192, three non-square, and a small C with
// a deep k, 512 x 512 x 8192, whose 64 x 128 tiles fill 32 of the H100's 528 block slots).
const std::vector<SweepShape>& sgemm_sweep_shapes();

// The tensor-core ladder beyond the seeds (kernels/matmul/30_*.cu .. 36_*.cu): FP16 inputs, FP32
// accumulation and output, each rung read against cuBLAS GemmEx on the same shape. `profile`
// says what Nsight Compute shows (profile-tensor: tensor pipe use, shared-memory bank
// conflicts, achieved occupancy).
const std::vector<LadderRung>& tensor_core_ladder();
// The shape the tensor-core ladder is timed at besides 4096^3 (one of sgemm_sweep_shapes()).
const SweepShape& tensor_core_large_shape();

// The shapes the rungs that stand near GemmEx (tensor_core_swept_rungs) are also timed at, each
// against GemmEx on that shape: square 2048, K-light, K-heavy, skinny in m and in n, and sides
// that are not multiples of the 128x256 tile (the padding's cost counts).
const std::vector<SweepShape>& tensor_core_sweep_shapes();
const std::vector<std::string>& tensor_core_swept_rungs();

}  // namespace kl::matmul
