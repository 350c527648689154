// docs/LESSONS.md, the lab's own document (not the harness's): each quantitative claim of the
// seed documents next to the bench's measurement of the same quantity, and whether it holds on
// the GPU measured, then the ladders beyond the seeds. Generated from a bench report by
// `kernel-lab lessons` (cmd_lessons.cpp), never typed by hand. Host-only.
#pragma once

#include "core/gates.hpp"
#include "core/result.hpp"
#include "core/roofline.hpp"

#include <string>
#include <vector>

namespace kl::lessons {

using bench::Gate;
using bench::Result;
using bench::Roofline;

enum class ClaimQuantity {
  speedup,        // value(a) / value(b): "a is N times faster than b"
  share_of_roof,  // value(a) / its physical roof: "N% of theoretical"
};

struct SeedClaim {
  std::string seed;    // file name
  std::string quote;   // the seed's own words
  std::string lesson;  // what the lab reads in it, e.g. "tile 16 beats tile 32 (occupancy)"
  ClaimQuantity quantity = ClaimQuantity::speedup;
  std::string a, b;    // result keys (b unused for share_of_roof)
  double claimed = 0;  // the seed's figure for the quantity; NaN where it gives a direction only
  // The claim holds when the measurement lies in [holds_from, holds_to]: a speedup claim
  // holds from 1.05 (clearly faster, beyond timing noise); a share claim within 25% of the figure.
  double holds_from = 0;
  double holds_to = 0;
};

// The seeds' claims the bench can measure (seed_claims.cpp).
const std::vector<SeedClaim>& seed_claims();

struct ClaimVerdict {
  const SeedClaim* claim = nullptr;
  bool measured = false;
  double value = 0;
  bool holds = false;
  const Gate* gate = nullptr;  // a gate on the same results, if the gates file has one
  std::string finding;         // the measurement next to the seed's figure, in words
  std::string text;            // "holds; gated by ...", "differs on <gpu>: ..."
};

ClaimVerdict judge_claim(const SeedClaim& claim, const std::vector<Result>& results, const Roofline& roofline,
                         const std::vector<Gate>& gates, const std::string& gpu);

// The whole file. `command` is what regenerates it (written into its header).
std::string lessons_markdown(const std::vector<SeedClaim>& claims, const std::vector<Result>& results,
                             const Roofline& roofline, const std::vector<Gate>& gates, const std::string& gpu,
                             const std::string& arch, const std::string& command);

}  // namespace kl::lessons
