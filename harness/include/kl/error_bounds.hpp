// Error bounds derived from floating-point analysis, not tuned tolerances.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace kl::bounds {

inline constexpr double fp32_unit_roundoff = 0x1p-24;  // u = eps/2 for binary32

// gamma(k) = k*u / (1 - k*u): the classic bound on the relative error of a length-k
// recursive dot product or sum in binary32 (Higham, Accuracy and Stability, 3.1).
inline double gamma(std::int64_t k) {
  const double ku = static_cast<double>(k) * fp32_unit_roundoff;
  return ku < 1.0 ? ku / (1.0 - ku) : std::numeric_limits<double>::infinity();
}

// The same in binary64 (u = 2^-53): what an FP64 oracle's own rounding can add.
inline double gamma64(std::int64_t k) {
  const double ku = static_cast<double>(k) * 0x1p-53;
  return ku < 1.0 ? ku / (1.0 - ku) : std::numeric_limits<double>::infinity();
}

// |s - ref| <= gamma(depth) * sum|x| for a binary32 sum computed as any tree of additions in
// which no element passes through more than `depth` of them (Higham 4.2: each term carries at
// most depth factors (1 + delta), |delta| <= u). A recursive sum of n terms has depth n - 1; a
// block tree over a per-thread chain has depth chain + tree + atomics, far less.
inline double float_sum_bound(std::int64_t depth, double sum_abs) {
  return depth <= 0 ? 0.0 : gamma(depth) * sum_abs;
}

// The same for the worst order of n terms (depth n - 1). It grows like n while the sum of
// zero-mean data grows like sqrt(n): from about 5*10^4 terms it accepts an all-zero sum, so it is
// only a sanity ceiling on a depth bound, never a check of its own.
inline double float_sum_worst_case_bound(std::int64_t n, double sum_abs) { return float_sum_bound(n - 1, sum_abs); }

// Integers of magnitude up to 2^24 are exactly representable in binary32. If every term is an
// integer and sum|x| <= 2^24, every partial sum of ANY order is an integer of magnitude at most
// sum|x|, so every addition is exact and the sum is exact: the check can demand equality.
inline constexpr double fp32_exact_integer_limit = 0x1p24;

// Distance in units in the last place between two floats (0 for equal values, including
// +0 and -0). Both infinities of the same sign are 0 apart; NaN is infinitely far from all.
inline std::int64_t ulp_distance(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<std::int64_t>::max();
  if (a == b) return 0;
  auto ordered = [](float f) {
    std::int32_t i;
    std::memcpy(&i, &f, sizeof i);
    // Map the sign-magnitude encoding onto a monotone integer line.
    return i < 0 ? std::int64_t{std::numeric_limits<std::int32_t>::min()} - i : std::int64_t{i};
  };
  const std::int64_t d = ordered(a) - ordered(b);
  return d < 0 ? -d : d;
}

// CUDA C Programming Guide, "Mathematical Functions" appendix: expf has a maximum error of
// 2 ulp (without -use_fast_math, which the lab never uses).
inline constexpr std::int64_t expf_max_ulp = 2;

}  // namespace kl::bounds
