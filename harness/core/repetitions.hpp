// How many timed repetitions a variant gets: enough for a stable median, few enough that the
// whole bench stays short. A fast kernel gets up to max_reps; a slow one (naive_sum at ~2 GB/s
// over 1 GB) still gets min_reps so a median and a spread exist.
#pragma once

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

}  // namespace kl::bench
