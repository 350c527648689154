// Where `bench` and `report` write a report: --json, --markdown, --tsv, --html FILE and --svg DIR
// (one file per chart). Checked before any work, written after it.
#pragma once

#include "args.hpp"

#include "core/gates.hpp"
#include "core/report.hpp"

#include <string>
#include <utility>
#include <vector>

namespace kl::cli {

// The output flags, as help lists them.
std::vector<FlagSpec> report_output_flags();
// Throws UsageError "--FLAG: cannot write 'PATH'" for an output that could not be written, asked
// without creating or touching anything. `more` names further file flags of the command.
void require_writable(const ParsedArgs& args, const std::vector<std::string>& more = {});
void write_file(const std::string& path, const std::string& text);
// Each chart (file name, SVG) into `dir`, created if missing.
void write_charts(const std::string& dir, const std::vector<std::pair<std::string, std::string>>& charts);
// How a report names a file: its path in the git repository that holds it ("bench/gates.conf"),
// so reports read the same on every runner; the path as given when no repository holds it.
std::string repository_path(const std::string& path);
// Now, as the report's date: "2026-11-23T12:34:56Z".
std::string utc_now_iso8601();
// Writes every output the flags ask for.
void write_report_outputs(const ParsedArgs& args, const bench::Report& report);

}  // namespace kl::cli
