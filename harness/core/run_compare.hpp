// Comparing two bench runs: the reader of `kernel-lab bench --tsv` files and the rule that calls
// a change a regression (`kernel-lab compare`, which ci/perf-compare.sh runs on the rounds it
// collected). Host-only; the fuzz target tests/fuzz/fuzz_bench_tsv.cpp feeds the reader.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace kl::bench {

// A malformed TSV file: "<name>:<line>: <what is wrong>". Bad input, so the CLI exits 2.
class TsvFileError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// One line of `bench --tsv`: variant key, metric, value, median/min/max ms. A figure the bench
// could not measure is written "null" and read as nullopt.
struct TsvRow {
  std::string key;
  std::string metric;
  std::optional<double> value, median_ms, min_ms, max_ms;
};
// kl::bench::times_problem (result.hpp) of the row's times, a time absent ("null") as none.
std::string times_problem(const TsvRow& row);

// Every line: six tab-separated fields, the last four numbers or "null", the median time
// positive when present, the times a measurement (times_problem). Blank lines, lines starting '#' and a first line that is the header
// (variant ... median_ms) are skipped. Several rounds may follow each other in one file.
std::vector<TsvRow> parse_bench_tsv(std::string_view text, const std::string& name);
// Reads a regular file of at most max_tsv_file_bytes and parses it (TsvFileError otherwise).
inline constexpr std::size_t max_tsv_file_bytes = std::size_t{16} << 20;
std::vector<TsvRow> load_bench_tsv(const std::string& path);

// The rule: per key and metric, a side's time is the median of its rows' median times, its
// noise the spread of those, (max - min) / median. The change head / base - 1 is a regression
// only above max(min_change_pct %, noise_factor x the larger noise), "faster" below minus that.
struct CompareRule {
  double min_change_pct = 5;
  double noise_factor = 2;
};

enum class Verdict { within_noise, faster, regression, only_in_base, new_in_head, no_time };
const char* to_string(Verdict v);

struct ComparedRow {
  std::string key, metric;
  std::optional<double> base_value, head_value;  // medians of the values measured
  std::optional<double> base_ms, head_ms;        // the sides' times (the rule's medians)
  double change = 0;                             // head / base - 1, when both sides have a time
  double bound = 0;                              // the rule's bound for this row
  Verdict verdict = Verdict::within_noise;
};

struct Comparison {
  CompareRule rule;
  std::vector<ComparedRow> rows;  // in the order keys first appear, base then head
  int regressions() const;
};

// Throws TsvFileError when neither side has a row.
Comparison compare_runs(const std::vector<TsvRow>& base, const std::vector<TsvRow>& head, const CompareRule& rule);
// The Markdown report: "### <title>", the rule, the table, and the regression count.
std::string comparison_markdown(const Comparison& comparison, const std::string& title);

}  // namespace kl::bench
