// What every family's `kernel-lab run` shares: flag ranges and the flags most families take,
// result and timing printing.
#pragma once

#include "args.hpp"

#include "kl/case_result.hpp"
#include "kl/registry.hpp"
#include "kl/timing.hpp"

#include <iosfwd>
#include <set>
#include <string>

namespace kl::cli {

// Parse range for shape flags; the variant's own rules (supports) then name what is wrong.
inline constexpr std::int64_t wide_range = std::int64_t{1} << 40;

void print_check(std::ostream& out, const CaseResult& r);
// Median, spread and, when bytes > 0, the bandwidth of bytes read plus written.
void print_timing(std::ostream& out, const TimingSummary& t, double bytes);
int reps_flag(const ParsedArgs& a);
// --seed and --reps, with their help lines: one place for what they mean in every family.
FlagSpec seed_flag_spec();
FlagSpec reps_flag_spec();
// `run`'s ceiling of a memory-bound kernel: device-to-device cudaMemcpy of `bytes`, in GB/s of
// bytes read plus written (median of `reps` after warm-up), timed as `run` times the kernel. (The
// bench's copy ceilings are timed as its cases are: Bench::timed_copy_ceiling.)
double d2d_copy_gbps(std::size_t bytes, int reps);
std::uint64_t seed_flag(const ParsedArgs& a);
// How `run` times a variant of a family whose reference is its CPU oracle (the kit families,
// quicksort, imatmul): the oracle's time is the host's, so it is timed with the host's time in the
// window; every other variant is held until queued (kl/timing.hpp).
HostTime host_time_of(Role role);
// Throws std::invalid_argument "<id>: <rule>" when the variant does not support the shape.
void require_supported(const VariantInfo& info, const std::string& rule);

}  // namespace kl::cli
