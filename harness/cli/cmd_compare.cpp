// `kernel-lab compare BASE.tsv HEAD.tsv`: two runs of `bench --tsv` (each may hold several
// rounds) side by side under the regression rule of core/run_compare.hpp. ci/perf-compare.sh
// collects the rounds on one GPU and calls this. Host only: exit 0 no regression, 1 a
// regression, 2 bad input.
#include "cli.hpp"
#include "report_output.hpp"

#include "core/charts.hpp"
#include "core/run_compare.hpp"

#include <charconv>
#include <ostream>

namespace kl::cli {
namespace {

// A non-negative decimal as a person types it ("5", "2.5"): digits, an optional fraction.
double decimal_flag(const ParsedArgs& args, const std::string& flag, double fallback, const char* what) {
  if (!args.has(flag)) return fallback;
  const std::string text = args.text(flag, "");
  const std::size_t dot = text.find('.');
  const auto digits = [](const std::string& s) {
    return !s.empty() && s.size() <= 12 && s.find_first_not_of("0123456789") == std::string::npos;
  };
  const bool ok = dot == std::string::npos ? digits(text) : digits(text.substr(0, dot)) && digits(text.substr(dot + 1));
  double value = 0;
  if (!ok || std::from_chars(text.data(), text.data() + text.size(), value).ec != std::errc())
    throw UsageError("--" + flag + " must be " + what + " (digits, an optional fraction), got '" + text + "'");
  return value;
}

}  // namespace

int cmd_compare(const ParsedArgs& args, std::ostream& out) {
  if (args.positionals.size() != 2)
    throw UsageError("'compare' needs two bench TSV files, base then head, e.g. base.tsv head.tsv");
  bench::CompareRule rule;
  rule.min_change_pct = decimal_flag(args, "min-change", rule.min_change_pct, "a number of percent");
  rule.noise_factor = decimal_flag(args, "noise-factor", rule.noise_factor, "a number");
  if (args.has("chart")) require_writable(args, {"chart"});
  const std::string& base = args.positionals[0];
  const std::string& head = args.positionals[1];
  // A malformed file or none: TsvFileError (std::invalid_argument), exit 2.
  const bench::Comparison c = bench::compare_runs(bench::load_bench_tsv(base), bench::load_bench_tsv(head), rule);
  const std::string title = args.text("title", "Performance: " + base + " vs " + head);
  out << bench::comparison_markdown(c, title);
  if (args.has("chart")) {
    write_file(args.text("chart", ""), bench::comparison_svg(c, title));
    out << "\nChart: " << args.text("chart", "") << "\n";
  }
  return c.regressions() > 0 ? 1 : 0;
}

}  // namespace kl::cli
