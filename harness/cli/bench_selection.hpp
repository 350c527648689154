// Which cases `kernel-lab bench` measures, from --family and --variant and the hook table.
// No GPU needed, so the host tier tests every refusal (exit 2) with its message.
#pragma once

#include "bench_context.hpp"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kl::cli {

struct BenchSelection {
  std::vector<BenchCase> cases;                // to measure, in table order
  std::set<std::string> complete_families;     // benched with no variant filter: their gates must all find results
  std::vector<bench::Exclusion> excluded;      // families and variants left out, with the reason
};

// family: --family (empty: every family); variant: --variant, a name of that family, or
// family.name without --family; sweep: --sweep, which adds each family's swept sizes
// (Family::sweep_cases). Throws UsageError naming what is unknown, not benchmarked or not swept.
BenchSelection select_bench_cases(const std::string& family, const std::string& variant, bool sweep = false);

}  // namespace kl::cli
