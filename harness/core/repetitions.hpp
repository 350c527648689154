// How many timed repetitions a variant gets: enough for a stable median, few enough that the
// whole bench stays short. A fast kernel gets up to max_reps; a slow one (naive_sum at ~2 GB/s
// over 1 GB) still gets min_reps so a median and a spread exist.
#pragma once

#include <algorithm>
#include <cmath>

namespace kl::bench {

struct RepetitionPolicy {
  double target_ms = 200;  // timed work per variant
  int min_reps = 3;
  // 50 until the gpu tier neared its five minutes: 50 runs' min..max spread within about 0.5% on
  // nearly every case, so 20 runs' median lies inside it, at less validation and rewarm time.
  int max_reps = 20;
  int fixed = 0;  // --reps N: exactly N, whatever the pilot said
};

// `pilot_ms`: the time of one warm repetition.
inline int repetitions_for(double pilot_ms, const RepetitionPolicy& p) {
  if (p.fixed > 0) return p.fixed;
  if (!(pilot_ms > 0)) return p.max_reps;
  const double wanted = std::ceil(p.target_ms / pilot_ms);
  if (wanted < p.min_reps) return p.min_reps;
  if (wanted > p.max_reps) return p.max_reps;
  return static_cast<int>(wanted);
}

// How long the bench idles the GPU before a power-hungry case (Bench::cool_down), given the
// milliseconds since the previous idle ended: as long as that, up to max_cool_down_ms. A case
// benched right after another reads low on the power budget the other spent (the 700 W cap of
// the H100 and H200); what it spent grows with how long it ran, so a short predecessor needs a
// short rest. Measured on an H200 (2026-11-29, the matmul bench three times with 150 ms before
// every case and four times with this rule, alternated in one session): 20.8-21.0 s instead of
// 38.1; every gate passed in every run; the gates' medians moved -1.4% to +2.7% (tensor-core
// rungs at 4096^3 and 2048^3, whose runs spread 2-4% either way); the absolute readings a little
// lower, GemmEx and rung 37 by 0.1-0.6% at 8192^3, cuBLAS SGEMM and rung 27 by 1-2% at 1024^3,
// a reference and its rungs alike.
constexpr double max_cool_down_ms = 150;
inline double cool_down_ms(double ms_since_last_cool_down) {
  return std::clamp(ms_since_last_cool_down, 0.0, max_cool_down_ms);
}

}  // namespace kl::bench
