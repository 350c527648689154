// The reader of `bench --tsv` files and the regression rule of `kernel-lab compare`
// (harness/core/run_compare.hpp). ci/perf-compare.sh's host test runs the same rule end to end.
#include "core/charts.hpp"
#include "core/run_compare.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace {

using kl::bench::compare_runs;
using kl::bench::parse_bench_tsv;
using kl::bench::TsvFileError;
using kl::bench::Verdict;

std::string parse_error(const std::string& text) {
  try {
    parse_bench_tsv(text, "run.tsv");
  } catch (const TsvFileError& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace

TEST(BenchCompareTsv, ReadsWhatTheBenchWrites) {
  const auto rows = parse_bench_tsv(
      "variant\tmetric\tvalue\tmedian_ms\tmin_ms\tmax_ms\n"
      "# round 1\n\n"
      "elementwise.add\tGB/s\t2711.5\t0.0989\t0.098\t0.1\n"
      "matmul.cublas\tTFLOPS\tnull\tnull\tnull\tnull\n"
      "reduction.cub_sum.float\tGB/s\t+3.0e3\t.5\t0.49\t0.51",  // no final newline
      "run.tsv");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].key, "elementwise.add");
  EXPECT_EQ(rows[0].metric, "GB/s");
  EXPECT_DOUBLE_EQ(*rows[0].value, 2711.5);
  EXPECT_DOUBLE_EQ(*rows[0].median_ms, 0.0989);
  EXPECT_FALSE(rows[1].value.has_value());
  EXPECT_FALSE(rows[1].median_ms.has_value());
  EXPECT_DOUBLE_EQ(*rows[2].value, 3000);
  EXPECT_DOUBLE_EQ(*rows[2].median_ms, 0.5);
  // Windows line ends read as the same file ("max_ms must be a number, got '1'" otherwise).
  const auto crlf = parse_bench_tsv("variant\tmetric\tvalue\tmedian_ms\tmin_ms\tmax_ms\r\nadd\tGB/s\t1\t1\t1\t1\r\n", "run.tsv");
  ASSERT_EQ(crlf.size(), 1u);
  EXPECT_DOUBLE_EQ(*crlf[0].max_ms, 1);
}

TEST(BenchCompareTsv, RefusesEveryMalformedLineNamingItsLine) {
  EXPECT_EQ(parse_error("a\tGB/s\t1\t1\t1\n"),
            "run.tsv:1: expected variant, metric, value, median_ms, min_ms, max_ms separated by tabs (6 fields), got 5");
  EXPECT_EQ(parse_error("a\tGB/s\t1\t1\t1\t1\t\n"),
            "run.tsv:1: expected variant, metric, value, median_ms, min_ms, max_ms separated by tabs (6 fields), got 7");
  EXPECT_EQ(parse_error("\n# c\na\tGB/s\tfast\t1\t1\t1\n"), "run.tsv:3: value must be a number or null, got 'fast'");
  EXPECT_EQ(parse_error("a\tGB/s\t1\t0\t0\t0\n"), "run.tsv:1: median time 0 is not positive");
  EXPECT_EQ(parse_error("a\tGB/s\t1\t-2\t1\t1\n"), "run.tsv:1: median time -2 is not positive");
  EXPECT_EQ(parse_error("a\tGB/s\t1\t1e999\t1\t1\n"), "run.tsv:1: median_ms '1e999' is out of range");
  // Times that are no measurement (a corrupted or hand-edited file; compare reads the medians only).
  EXPECT_EQ(parse_error("a\tGB/s\t1\t1\t-1\t2\n"), "run.tsv:1: min_ms -1 is negative");
  EXPECT_EQ(parse_error("a\tGB/s\t1\t2\t2.5\t2.1\n"), "run.tsv:1: min_ms 2.5 is above max_ms 2.1");
  EXPECT_EQ(parse_error("a\tGB/s\t1\t3\t1\t2\n"), "run.tsv:1: median_ms 3 is outside min_ms 1 .. max_ms 2");
  EXPECT_EQ(parse_error("a\tGB/s\t1\t0.5\t1\t2\n"), "run.tsv:1: median_ms 0.5 is outside min_ms 1 .. max_ms 2");
  EXPECT_EQ(parse_error("\tGB/s\t1\t1\t1\t1\n"), "run.tsv:1: the variant and the metric must not be empty");
  // Only the file's first line may be the header; the bench never writes inf, nan or hex.
  EXPECT_NE(parse_error("a\tGB/s\t1\t1\t1\t1\nvariant\tmetric\tvalue\tmedian_ms\tmin_ms\tmax_ms\n"), "accepted");
  for (const char* bad : {"inf", "nan", "0x10", "1e", ".", "1.2.3", " 1", "1 ", "--1", "+"})
    EXPECT_EQ(parse_error(std::string("a\tGB/s\t") + bad + "\t1\t1\t1\n"),
              std::string("run.tsv:1: value must be a number or null, got '") + bad + "'")
        << bad;
}

TEST(BenchCompareTsv, LoadsOnlyRegularFiles) {
  const std::string dir = std::filesystem::temp_directory_path().string();
  try {
    kl::bench::load_bench_tsv(dir);
    FAIL() << "a directory was read as a TSV file";
  } catch (const TsvFileError& e) {
    EXPECT_EQ(std::string(e.what()), "bench TSV '" + dir + "' is not a regular file");
  }
  EXPECT_THROW(kl::bench::load_bench_tsv(dir + "/no-such-kernel-lab.tsv"), TsvFileError);
}

namespace {

// Rows of one key whose median times are `ms` (one per round).
std::vector<kl::bench::TsvRow> rounds(const std::string& key, std::initializer_list<double> ms, double value = 100) {
  std::vector<kl::bench::TsvRow> rows;
  for (double t : ms) rows.push_back({key, "GB/s", value, t, t * 0.99, t * 1.01});
  return rows;
}

}  // namespace

TEST(BenchCompareRule, RegressionOnlyBeyondTheLargerOfTheFloorAndTheNoise) {
  const kl::bench::CompareRule rule;  // 5%, 2 x noise
  // 4% slower, no noise: under the 5% floor.
  EXPECT_EQ(compare_runs(rounds("a", {1, 1, 1}), rounds("a", {1.04, 1.04, 1.04}), rule).rows[0].verdict,
            Verdict::within_noise);
  // 10% slower with 2% noise: bound max(5%, 4%) = 5%, a regression.
  const auto slower = compare_runs(rounds("a", {1, 1.02, 1}), rounds("a", {1.1, 1.1, 1.1}), rule);
  EXPECT_EQ(slower.rows[0].verdict, Verdict::regression);
  EXPECT_NEAR(slower.rows[0].change, 0.1, 1e-12);
  EXPECT_NEAR(slower.rows[0].bound, 0.05, 1e-12);
  EXPECT_EQ(slower.regressions(), 1);
  // 10% slower with 6% noise: bound 12%, within noise.
  EXPECT_EQ(compare_runs(rounds("a", {1, 1.06, 1}), rounds("a", {1.1, 1.1, 1.1}), rule).rows[0].verdict,
            Verdict::within_noise);
  // 20% faster: "faster", never a failure.
  const auto faster = compare_runs(rounds("a", {1, 1, 1}), rounds("a", {0.8, 0.8, 0.8}), rule);
  EXPECT_EQ(faster.rows[0].verdict, Verdict::faster);
  EXPECT_EQ(faster.regressions(), 0);
  // The rule's parameters are the caller's.
  EXPECT_EQ(compare_runs(rounds("a", {1}), rounds("a", {1.04}), {3, 2}).rows[0].verdict, Verdict::regression);
}

TEST(BenchCompareRule, RowsOnOneSideOrWithoutATimeAreListedNotFailed) {
  auto base = rounds("kept", {1});
  auto head = rounds("kept", {1});
  const auto gone = rounds("gone", {1});
  const auto added = rounds("added", {1});
  base.insert(base.end(), gone.begin(), gone.end());
  head.insert(head.end(), added.begin(), added.end());
  base.push_back({"untimed", "TFLOPS", std::nullopt, std::nullopt, std::nullopt, std::nullopt});
  head.push_back({"untimed", "TFLOPS", 5, 1, 1, 1});
  const auto c = compare_runs(base, head, {});
  ASSERT_EQ(c.rows.size(), 4u);  // in the order the keys first appear, base then head
  EXPECT_EQ(c.rows[0].key, "kept");
  EXPECT_EQ(c.rows[1].verdict, Verdict::only_in_base);
  EXPECT_EQ(c.rows[2].verdict, Verdict::no_time);
  EXPECT_EQ(c.rows[3].verdict, Verdict::new_in_head);
  EXPECT_EQ(c.regressions(), 0);
  EXPECT_THROW(compare_runs({}, {}, {}), TsvFileError);
}

// A side without results would read as "no regression" (nothing can be slower than nothing): an
// empty or header-only base must not pass a pull request's perf comparison.
TEST(BenchCompareRule, ASideWithoutResultsIsRefused) {
  const auto refusal = [](const std::vector<kl::bench::TsvRow>& base, const std::vector<kl::bench::TsvRow>& head) {
    try {
      compare_runs(base, head, {});
    } catch (const TsvFileError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(refusal({}, rounds("a", {1})), "the base run has no results: nothing to compare against");
  EXPECT_EQ(refusal(rounds("a", {1}), {}), "the head run has no results: nothing to compare");
  EXPECT_EQ(refusal(rounds("a", {1}), rounds("a", {1})), "accepted");
}

TEST(BenchCompareRule, TheMarkdownStatesTheRuleAndEveryRow) {
  const auto c = compare_runs(rounds("add", {1, 1.02, 1}, 1000), rounds("add", {1.1, 1.1, 1.1}, 900), {});
  const std::string md = kl::bench::comparison_markdown(c, "Performance: base vs head");
  EXPECT_EQ(md.rfind("### Performance: base vs head\n\nRule: ", 0), 0u) << md;
  EXPECT_NE(md.find("max(5%, 2 x the larger noise)"), std::string::npos) << md;
  EXPECT_NE(md.find("| add | GB/s | 1000 | 900 | 1 | 1.1 | +10.0% | +-5.0% | **REGRESSION** |\n"), std::string::npos)
      << md;
  EXPECT_NE(md.find("**1 regression(s) beyond noise.**"), std::string::npos) << md;
}

TEST(BenchCompareRule, TheChartShowsEveryComparedRowByItsVerdict) {
  auto base = rounds("slower", {1, 1, 1});
  auto head = rounds("slower", {1.2, 1.2, 1.2});
  for (const auto& r : rounds("quicker", {1, 1, 1})) base.push_back(r);
  for (const auto& r : rounds("quicker", {0.5, 0.5, 0.5})) head.push_back(r);
  for (const auto& r : rounds("gone", {1})) base.push_back(r);
  const std::string svg = kl::bench::comparison_svg(compare_runs(base, head, {}), "base & head");
  EXPECT_NE(svg.find("<rect class=\"change\" data-key=\"slower\" data-verdict=\"**REGRESSION**\""), std::string::npos) << svg;
  EXPECT_NE(svg.find("<rect class=\"change\" data-key=\"quicker\" data-verdict=\"faster\""), std::string::npos) << svg;
  EXPECT_EQ(svg.find("data-key=\"gone\""), std::string::npos);  // nothing to compare: not drawn
  EXPECT_NE(svg.find("<title>base &amp; head</title>"), std::string::npos);
}
