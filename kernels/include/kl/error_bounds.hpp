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

// |s - ref| <= (n-1) * eps * sum|x|: the bound on any summation order of n binary32 terms
// (each partial sum rounds at most once per add).
inline double float_sum_bound(std::int64_t n, double sum_abs) {
  return n <= 1 ? 0.0 : static_cast<double>(n - 1) * 2.0 * fp32_unit_roundoff * sum_abs;
}

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
