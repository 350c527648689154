// The size sweep of the memory-bound families (`kernel-lab bench --sweep`): which element counts
// are swept, how a swept result names its n, and what a sweep says per variant: its share of
// the ceiling measured at each n, and the smallest n at which it reaches 90% of it.
// Host-only (no CUDA), so the host tier tests the tags and the summary.
#pragma once

#include "result.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kl::bench {

// n = 2^12, 2^14, ..., 2^30 (powers of 4): small n shows launch latency, large n bandwidth.
const std::vector<std::int64_t>& sweep_sizes();

// A swept result's tag (Result::sweep) for n: "n4k", "n64k", "n1m", "n1g" (binary prefixes;
// result keys allow [a-z0-9_] only). Throws std::invalid_argument for n not in sweep_sizes().
std::string size_tag(std::int64_t n);
// The n a tag names, or nothing when the tag is not a size tag (a matmul shape, "").
std::optional<std::int64_t> size_of_tag(const std::string& tag);
// "2^16" for a power of two, else the number.
std::string size_text(std::int64_t n);

// The share of its ceiling a swept variant must reach to count as at its limit.
inline constexpr double sweep_limit_share = 0.9;

// One variant's sweep: its results at each swept n, in ascending n.
struct SweepRow {
  std::string key;  // family.variant[.dtype]
  std::vector<std::pair<std::int64_t, const Result*>> points;
  // The smallest n at which the ratio to the ceiling reaches sweep_limit_share, or nothing.
  std::optional<std::int64_t> limit_from() const;
};

// Every variant with size-tagged results, in the order they first appear.
std::vector<SweepRow> sweep_rows(const std::vector<Result>& results);

// The sweep as a Markdown table: a row per variant, a column per n with the % of its ceiling,
// and the smallest n reaching 90% ("never" when none does). Empty when no result is swept.
std::string sweep_markdown(const std::vector<Result>& results);

}  // namespace kl::bench
