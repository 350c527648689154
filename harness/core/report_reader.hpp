// Reading a bench report back from its JSON (`kernel-lab bench --json`): what `kernel-lab report`
// renders as HTML without a GPU, and what merging several runs' reports starts from.
#pragma once

#include "json_value.hpp"
#include "report.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kl::bench {

// Throws JsonError naming the file and, for a missing or mistyped field, its path in the
// document ("results[3].value: expected a number or null").
Report read_report_json(std::string_view text, const std::string& name);
inline constexpr std::size_t max_report_file_bytes = std::size_t{64} << 20;
// A regular file of at most max_report_file_bytes (JsonError otherwise).
Report load_report_json(const std::string& path);

// Several reports of one run made into one: the perf tier's per-family files, or the shards of a
// GPU tier spread over runners. They must come from one GPU model and one commit; a result or a
// gate measured twice is refused (std::invalid_argument naming it). Ceilings and exclusions are
// kept once by name, the latest date wins.
Report merge_reports(const std::vector<Report>& reports);

}  // namespace kl::bench
