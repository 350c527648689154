// `kernel-lab report BENCH.json...`: reports the bench wrote, merged into one (the perf tier
// writes one per family; a sharded GPU tier one per shard) and rendered again on any machine
// (HTML with its charts, SVG files, Markdown, TSV, JSON). The host tier's browser test renders a
// fixture with it; ci/gpu.sh and ci/merge-reports.sh render the perf tier's JSON.
#include "cli.hpp"
#include "report_output.hpp"

#include "core/report_reader.hpp"

#include <ostream>
#include <vector>

namespace kl::cli {

int cmd_report(const ParsedArgs& args, std::ostream& out) {
  if (args.positionals.empty()) throw UsageError("'report' needs the JSON a bench wrote (kernel-lab bench --json FILE)");
  if (!args.has("json") && !args.has("markdown") && !args.has("tsv") && !args.has("html") && !args.has("svg"))
    throw UsageError("'report' needs at least one of --html, --svg, --markdown, --tsv, --json");
  require_writable(args);
  // A malformed file, or files that do not make one run: std::invalid_argument, exit 2.
  std::vector<bench::Report> reports;
  for (const std::string& path : args.positionals) reports.push_back(bench::load_report_json(path));
  const bench::Report report = bench::merge_reports(reports);
  write_report_outputs(args, report);
  out << args.positionals.size() << " report(s): " << report.results.size() << " results, "
      << report.gates.outcomes.size() << " gates (" << report.gpu << ", commit " << report.commit << ")\n";
  return 0;
}

}  // namespace kl::cli
