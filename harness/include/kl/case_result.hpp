// What checking one launch against its oracle found.
#pragma once

#include "kl/guarded_buffer.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace kl {

struct Mismatch {
  std::size_t index = 0;
  double got = 0;
  double want = 0;
  double allowed = 0;  // the error bound at this element (0 for exact comparisons)
};

struct CaseResult {
  GuardReport guards;
  std::vector<Mismatch> mismatches;  // the first few only (see max_reported_mismatches)
  std::size_t mismatch_count = 0;    // all of them
  std::size_t checked = 0;           // elements compared

  bool ok() const { return guards.ok() && mismatch_count == 0; }
  // One paragraph: the guard report and the first mismatches with their indices.
  std::string describe() const;
  // Records a mismatch, keeping only the first few for the report.
  void add_mismatch(const Mismatch& m);
  // Takes the canary words of a guarded output's report; the unwritten count stays this
  // comparison's, which knows the elements the kernel must leave alone.
  void take_canaries(const GuardReport& g);
};

inline constexpr std::size_t max_reported_mismatches = 8;

}  // namespace kl
