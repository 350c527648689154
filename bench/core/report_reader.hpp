// Reading a bench report back from its JSON (`kernel-lab bench --json`): what `kernel-lab report`
// renders as HTML without a GPU, and what merging several runs' reports starts from.
#pragma once

#include "json_value.hpp"
#include "report.hpp"

#include <cstddef>
#include <string>
#include <string_view>

namespace kl::bench {

// Throws JsonError naming the file and, for a missing or mistyped field, its path in the
// document ("results[3].value: expected a number or null").
Report read_report_json(std::string_view text, const std::string& name);
inline constexpr std::size_t max_report_file_bytes = std::size_t{64} << 20;
// A regular file of at most max_report_file_bytes (JsonError otherwise).
Report load_report_json(const std::string& path);

}  // namespace kl::bench
