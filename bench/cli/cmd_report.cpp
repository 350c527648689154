// `kernel-lab report BENCH.json`: a report the bench wrote, rendered again on any machine (HTML
// with its charts, SVG files, Markdown, TSV). The host tier's browser test renders a fixture
// with it; CI renders the runs' JSON after the GPU job.
#include "cli.hpp"
#include "report_output.hpp"

#include "core/report_reader.hpp"

#include <ostream>

namespace kl::cli {

int cmd_report(const ParsedArgs& args, std::ostream& out) {
  if (args.positionals.empty()) throw UsageError("'report' needs the JSON a bench wrote (kernel-lab bench --json FILE)");
  if (!args.has("json") && !args.has("markdown") && !args.has("tsv") && !args.has("html") && !args.has("svg"))
    throw UsageError("'report' needs at least one of --html, --svg, --markdown, --tsv, --json");
  require_writable(args);
  // A malformed file: JsonError (std::invalid_argument), exit 2.
  const bench::Report report = bench::load_report_json(args.positionals[0]);
  write_report_outputs(args, report);
  out << args.positionals[0] << ": " << report.results.size() << " results, " << report.gates.outcomes.size()
      << " gates (" << report.gpu << ", commit " << report.commit << ")\n";
  return 0;
}

}  // namespace kl::cli
