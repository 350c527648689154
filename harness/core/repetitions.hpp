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

// A case's own terms inside the bench's policy (cli::BenchCase::runs); zero leaves the bench's.
// A sweep of many cases caps its runs; a sweep of short kernels also times them for less than the
// bench's target but at least min_reps times, because one launch of tens of microseconds can take
// twice as long now and then (on the H100, 5 runs of a 60 us GEMM once read 25% slow in their
// median; docs/TENSOR_CORE_LADDER.md), and a median of 20 runs shrugs off what one of 5 does not.
struct CaseRuns {
  int max_reps = 0;      // at most this many timed runs
  double target_ms = 0;  // about this much timed work instead of the bench's target_ms
  int min_reps = 0;      // at least this many (never more than max_reps)
};

inline RepetitionPolicy for_case(RepetitionPolicy p, const CaseRuns& c) {
  if (c.max_reps > 0) p.max_reps = std::min(p.max_reps, c.max_reps);
  if (c.target_ms > 0) p.target_ms = c.target_ms;
  if (c.min_reps > 0) p.min_reps = std::max(p.min_reps, c.min_reps);
  p.min_reps = std::min(p.min_reps, p.max_reps);
  return p;  // `fixed` (--reps) untouched: it still wins
}

}  // namespace kl::bench
