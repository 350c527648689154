// The bench report read back from JSON (json_value, report_reader) and drawn (charts): the
// fixture tests/fixtures/bench-report.json stands for a bench run. The browser test
// (tests/ci/test_report_browser.sh) looks at the same page in Chromium. No GPU.
#include "core/charts.hpp"
#include "core/report_reader.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

#ifndef KL_TEST_FIXTURES
#error "KL_TEST_FIXTURES must name tests/fixtures"
#endif

namespace {

using kl::bench::JsonError;

std::string fixture_text() {
  std::ifstream in(std::string(KL_TEST_FIXTURES) + "/bench-report.json");
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

kl::bench::Report fixture() { return kl::bench::read_report_json(fixture_text(), "bench-report.json"); }

std::string json_error(const std::string& text) {
  try {
    kl::bench::parse_json(text, "x.json");
  } catch (const JsonError& e) {
    return e.what();
  }
  return "accepted";
}

std::string report_error(const std::string& text) {
  try {
    kl::bench::read_report_json(text, "r.json");
  } catch (const JsonError& e) {
    return e.what();
  }
  return "accepted";
}

// The fixture with the first occurrence of `from` replaced by `to`.
std::string fixture_with(const std::string& from, const std::string& to) {
  std::string text = fixture_text();
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

}  // namespace

TEST(BenchReportJson, ParsesStrictJson) {
  const auto v = kl::bench::parse_json(R"( {"a": [1, -2.5e3, true, null], "s": "\u00e9\ud83d\ude00\n", "a": 0} )", "x.json");
  ASSERT_EQ(v.kind(), kl::bench::JsonValue::Kind::object);
  EXPECT_EQ(v.members().size(), 3u);
  EXPECT_EQ(v.find("a")->number(), 0);  // a repeated name: the last one
  EXPECT_EQ(v.members()[0].second.items()[1].number(), -2500);
  EXPECT_EQ(v.find("s")->string(), "\xC3\xA9\xF0\x9F\x98\x80\n");
  EXPECT_EQ(v.find("missing"), nullptr);
}

TEST(BenchReportJson, RefusesMalformedJsonNamingLineAndColumn) {
  EXPECT_EQ(json_error("{"), "x.json:1:2: expected a member name in double quotes");
  EXPECT_EQ(json_error("[1,\n 2,]"), "x.json:2:4: expected a value");
  EXPECT_EQ(json_error("[NaN]"), "x.json:1:2: expected a value");
  EXPECT_EQ(json_error("[1e999]"), "x.json:1:2: number out of range");
  EXPECT_EQ(json_error("[01]"), "x.json:1:3: expected ']'");
  EXPECT_EQ(json_error("[1.]"), "x.json:1:4: a digit must follow the decimal point");
  EXPECT_EQ(json_error("\"\\ud800\""), "x.json:1:8: a lone UTF-16 surrogate");
  EXPECT_EQ(json_error("\"a\tb\""), "x.json:1:3: a control character inside a string");
  EXPECT_EQ(json_error("{} {}"), "x.json:1:4: unexpected text after the document");
  EXPECT_EQ(json_error(""), "x.json:1:1: expected a value");
  EXPECT_EQ(json_error(std::string(65, '[') + std::string(65, ']')), "x.json:1:65: nested deeper than 64 levels");
  EXPECT_EQ(json_error(std::string(64, '[') + std::string(64, ']')), "accepted");
}

TEST(BenchReportJson, ReadsTheFixtureAndWritesItBackUnchanged) {
  const kl::bench::Report rep = fixture();
  EXPECT_EQ(rep.gpu, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(rep.commit, "fixture");
  ASSERT_EQ(rep.results.size(), 16u);
  EXPECT_EQ(rep.results[4].key(), "matmul.cublas");
  EXPECT_EQ(rep.results[5].key(), "matmul.register_blocked.m1024_n1024_k1024");
  EXPECT_EQ(rep.results[14].roof, kl::bench::Roof::none);
  ASSERT_EQ(rep.gates.outcomes.size(), 4u);
  EXPECT_EQ(rep.gates.outcomes[2].status, kl::bench::GateStatus::remeasured_pass);
  EXPECT_EQ(rep.gates.outcomes[2].remeasures, 1);
  // What the bench writes, read and written again, is the same text.
  const std::string once = kl::bench::to_json(rep);
  EXPECT_EQ(kl::bench::to_json(kl::bench::read_report_json(once, "once.json")), once);
}

TEST(BenchReportJson, NamesTheMissingOrMistypedField) {
  // The fixture with one text replaced, and the refusal it must get.
  const struct {
    const char* from;
    const char* to;
    const char* refusal;
  } cases[] = {
      {"\"arch\": \"sm_90\"", "\"arch\": 90", "r.json: arch: expected a string"},
      {"\"value\": 1.9,", "", "r.json: results[0].value: missing"},
      {"\"roof\": \"fp32_peak\"", "\"roof\": \"fp64\"", "r.json: results[0].roof: unknown roof 'fp64'"},
      {"\"reps\": 20", "\"reps\": 2.5", "r.json: results[0].reps: expected a whole number in [0, 10^9]"},
      {"\"key\": \"matmul.naive\"", "\"key\": \"matmul.other\"", "r.json: results[0].key: 'matmul.other' is not matmul.naive"},
      {"\"status\": \"pass\"", "\"status\": \"ok\"", "r.json: gates[0].status: unknown gate status 'ok'"},
      {"\"reps\": 20", "\"reps\": 20, \"runs_ms\": [1.5, \"x\"]", "r.json: results[0].runs_ms[1]: expected a number >= 0"},
      // Times, rates and peaks are never negative: a negative one is a corrupted file, not a result.
      {"\"value\": 1.9,", "\"value\": -1.9,", "r.json: results[0].value: expected a number >= 0 or null, got -1.9"},
      {"\"reps\": 20", "\"reps\": 20, \"runs_ms\": [1.5, -2]", "r.json: results[0].runs_ms[1]: expected a number >= 0"},
      {"\"min_ms\": 71.61293", "\"min_ms\": 72.5",
       "r.json: results[0]: median_ms 72.3363 is outside min_ms 72.5 .. max_ms 73.783"},
  };
  for (const auto& c : cases) EXPECT_EQ(report_error(fixture_with(c.from, c.to)), c.refusal) << c.to;
  EXPECT_EQ(report_error("[]"), "r.json: : expected an object");
}

TEST(BenchReportHtml, OnePointPerResultWithARateAndAnIntensity) {
  const kl::bench::Report rep = fixture();
  const std::string svg = kl::bench::roofline_svg(rep);
  // 16 results; elementwise.exp and basics.fill_arr have no intensity (no operation count).
  EXPECT_EQ(count(svg, "<circle class=\"point\""), 14u);
  for (const kl::bench::Result& r : rep.results) {
    const bool on_chart = r.intensity > 0;
    EXPECT_EQ(count(svg, "data-key=\"" + r.key() + "\""), on_chart ? 1u : 0u) << r.key();
  }
  for (const char* roof : {"dram", "fp32", "fp16_tensor", "int32"})
    EXPECT_EQ(count(svg, std::string("data-roof=\"") + roof + "\""), 1u) << roof;
  EXPECT_EQ(count(svg, "class=\"ceiling\""), 3u);
  EXPECT_EQ(count(svg, "class=\"axis x\""), 1u);
  EXPECT_EQ(count(svg, "class=\"axis y\""), 1u);
  const std::string page = kl::bench::html_report(rep);
  EXPECT_NE(page.find("Not on the chart (no operation count or intensity): <code>elementwise.exp</code> "
                      "<code>basics.fill_arr</code>."),
            std::string::npos);
}

TEST(BenchReportHtml, LaddersMarkEachMinRatioGateByItsOutcome) {
  const kl::bench::Report rep = fixture();
  const std::string matmul = kl::bench::ladder_svg(rep, "matmul");
  EXPECT_EQ(count(matmul, "<g class=\"rung\""), 5u);  // the swept results are the sweep chart's
  EXPECT_EQ(count(matmul, "class=\"gate-threshold\""), 1u);
  EXPECT_NE(matmul.find("data-gate=\"min_ratio(matmul.register_blocked)\""), std::string::npos);
  const std::string elementwise = kl::bench::ladder_svg(rep, "elementwise");
  const std::size_t mark = elementwise.find("class=\"gate-threshold\"");
  ASSERT_NE(mark, std::string::npos);
  EXPECT_NE(elementwise.find("stroke=\"#d62728\"", mark), std::string::npos);  // the failed gate is red
  EXPECT_EQ(kl::bench::sweep_svg(rep, "reduction"), "");
  EXPECT_EQ(count(kl::bench::sweep_svg(rep, "matmul"), "<polyline class=\"sweep-curve\""), 1u);
  std::vector<std::string> names;
  for (const auto& chart : kl::bench::report_charts(rep)) names.push_back(chart.first);
  EXPECT_EQ(names, (std::vector<std::string>{"roofline.svg", "ladder-matmul.svg", "sweep-matmul.svg",
                                             "ladder-reduction.svg", "ladder-elementwise.svg", "ladder-basics.svg"}));
}

// A size sweep's x axis runs in ascending n even when the 2^16 point came first (the bench's own
// small case precedes the sweep), and each curve's points follow the axis.
TEST(BenchReportHtml, SizeSweepRunsInAscendingN) {
  kl::bench::Report rep = fixture();
  rep.results.clear();
  for (const char* tag : {"n64k", "n4k", "n16k", "n256k"}) {
    kl::bench::Result r;
    r.family = "reduction";
    r.variant = "vectorized_single_launch";
    r.dtype = "float";
    r.sweep = tag;
    r.metric = "GB/s";
    r.value = 10;
    r.ceiling_value = 10;
    rep.results.push_back(r);
  }
  const std::string svg = kl::bench::sweep_svg(rep, "reduction");
  const std::size_t n4k = svg.find(">n4k<"), n16k = svg.find(">n16k<"), n64k = svg.find(">n64k<"),
                    n256k = svg.find(">n256k<");
  ASSERT_NE(n256k, std::string::npos) << svg;
  EXPECT_LT(n4k, n16k);
  EXPECT_LT(n16k, n64k);
  EXPECT_LT(n64k, n256k);
  // The polyline's x coordinates increase point by point.
  const std::size_t at = svg.find("points=\"");
  ASSERT_NE(at, std::string::npos);
  std::istringstream points(svg.substr(at + 8, svg.find('"', at + 8) - at - 8));
  double last_x = -1;
  for (std::string point; points >> point;) {
    const double x = std::stod(point.substr(0, point.find(',')));
    EXPECT_GT(x, last_x) << svg;
    last_x = x;
  }
}

TEST(BenchReportHtml, ThePageIsSelfContainedAndEscapesText) {
  kl::bench::Report rep = fixture();
  rep.results[0].variant = "<naive & \"friends\">";
  const std::string page = kl::bench::html_report(rep);
  for (const char* fetches : {"src=", "href=", "@import", "url(http", "<link", "<script"})
    EXPECT_EQ(page.find(fetches), std::string::npos) << fetches;
  EXPECT_EQ(page.find("<naive"), std::string::npos);
  EXPECT_NE(page.find("matmul.&lt;naive &amp; &quot;friends&quot;&gt;"), std::string::npos);
  EXPECT_NE(page.find("<dd id=\"commit\">fixture</dd>"), std::string::npos);
  EXPECT_EQ(count(page, "<tr class=\"gate status-"), 4u);
  EXPECT_NE(page.find("<tr class=\"gate status-fail\" data-gate=\"min_ratio(elementwise.exp)\">"), std::string::npos);
  EXPECT_NE(page.find("remeasured-pass (re-measured 1x)"), std::string::npos);
}

TEST(BenchReportMerge, OneRunFromSeveralFiles) {
  const kl::bench::Report whole = fixture();
  kl::bench::Report matmul = whole, rest = whole;
  matmul.results.assign(whole.results.begin(), whole.results.begin() + 8);
  rest.results.assign(whole.results.begin() + 8, whole.results.end());
  matmul.gates.outcomes.assign(whole.gates.outcomes.begin(), whole.gates.outcomes.begin() + 2);
  rest.gates.outcomes.assign(whole.gates.outcomes.begin() + 2, whole.gates.outcomes.end());
  rest.date = "2026-11-23T12:30:00Z";
  const kl::bench::Report merged = kl::bench::merge_reports({matmul, rest});
  ASSERT_EQ(merged.results.size(), whole.results.size());
  for (std::size_t i = 0; i < whole.results.size(); ++i) EXPECT_EQ(merged.results[i].key(), whole.results[i].key());
  EXPECT_EQ(merged.gates.outcomes.size(), 4u);
  EXPECT_EQ(merged.ceilings.size(), whole.ceilings.size());  // each kept once
  EXPECT_EQ(merged.date, "2026-11-23T12:30:00Z");
}

TEST(BenchReportMerge, RefusesFilesThatAreNotOneRun) {
  const kl::bench::Report a = fixture();
  auto refusal = [](const std::vector<kl::bench::Report>& reports) {
    try {
      kl::bench::merge_reports(reports);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("merged");
  };
  EXPECT_EQ(refusal({a, a}), "result matmul.naive is in more than one report");
  kl::bench::Report gates_only = a;
  gates_only.results.clear();
  kl::bench::Report results_only = a;
  results_only.gates.outcomes.clear();
  EXPECT_EQ(refusal({results_only, gates_only}), "merged");
  EXPECT_EQ(refusal({a, gates_only}), "gate min_ratio(matmul.register_blocked) is in more than one report");
  kl::bench::Report other_gpu = gates_only;
  other_gpu.gpu = "NVIDIA H200";
  EXPECT_EQ(refusal({results_only, other_gpu}),
            "cannot merge reports of different GPUs: NVIDIA H100 80GB HBM3 (sm_90) and NVIDIA H200 (sm_90)");
  kl::bench::Report other_commit = gates_only;
  other_commit.commit = "abc1234";
  EXPECT_EQ(refusal({results_only, other_commit}), "cannot merge reports of different commits: fixture and abc1234");
  EXPECT_EQ(refusal({}), "no report to merge");
}
