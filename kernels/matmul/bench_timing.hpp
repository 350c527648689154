// How the matmul bench times one case, in one place: the bench's cases (family.cpp) and `kernel-lab
// tune`'s candidates (tune_command.cpp) are timed by the same function, so tune ranks its
// candidates as the bench will read the one it ships. (tune used to time each candidate back to
// back, without the bench's L2 flushes and validated runs, and at 8192^3 its ranking disagreed
// with the bench's by 4%.)
#pragma once

#include "bench_context.hpp"

#include "kl/device_buffer.hpp"
#include "kl/matmul.hpp"
#include "kl/matmul_oracle.hpp"
#include "kl/timing.hpp"

#include <cstdint>
#include <map>

namespace kl::cli {

// A bench shape's inputs, generated on the GPU (seeded, uniform in [-1, 1)), C, and the FP64
// oracle of every element per input precision, each computed once.
struct MatmulInputs {
  static constexpr std::uint64_t seed = 1;
  bool ready = false;
  matmul::Shape shape;
  DeviceBuffer<float> a, b, c;
  std::map<matmul::InputPrecision, matmul::DeviceReference> reference;

  void build(const matmul::Shape& s);
  // The oracle for the inputs the variant multiplies (FP16-rounded for GemmEx and the tensor-core
  // rungs).
  const matmul::DeviceReference& reference_for(matmul::InputPrecision p);
};

// Times variant `v` on `in` as the bench does (its inputs staged first, untimed; then a
// cool-down; then Bench::validated_timing, which checks every element of C against
// the oracle on the GPU before timing and after every timed run). Throws std::runtime_error
// naming case `c` when a check fails.
TimingSummary time_as_benched(const BenchCase& c, const matmul::Variant& v, MatmulInputs& in, Bench& ctx);

}  // namespace kl::cli
