// The gates file: parsing (and its errors, with line numbers), per-architecture sections, and
// evaluation with re-measurement against stubbed measurements. No GPU.
#include "core/gates.hpp"
#include "regex_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

using kl::bench::Gate;
using kl::bench::GateKind;
using kl::bench::GateStatus;
using kl::bench::Result;

kl::bench::GatesFile parse(const std::string& text) {
  std::istringstream in(text);
  return kl::bench::parse_gates(in, "gates.conf");
}

void expect_parse_error(const std::string& text, const std::string& message) {
  try {
    parse(text);
    ADD_FAILURE() << "no error for:\n" << text;
  } catch (const kl::bench::GatesFileError& e) {
    EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
  }
}

Result result(const std::string& family, const std::string& variant, double value, double ceiling_value,
              const std::string& metric = "GB/s") {
  Result r;
  r.family = family;
  r.variant = variant;
  r.metric = metric;
  r.value = value;
  r.ceiling = "d2d_copy";
  r.ceiling_value = ceiling_value;
  return r;
}

// Re-measurement stub: each call for a key takes the next value of its script.
struct Script {
  std::map<std::string, std::vector<double>> next;
  std::vector<std::string> calls;
  kl::bench::Remeasure bind(std::vector<Result>& results) {
    return [this, &results](const std::string& key) {
      calls.push_back(key);
      auto& values = next.at(key);
      for (Result& r : results)
        if (r.key() == key) r.value = values.front();
      values.erase(values.begin());
    };
  }
};

}  // namespace

TEST(BenchGatesParse, KindsSectionsCommentsAndOff) {
  const auto file = parse(
      "# header\n"
      "\n"
      "[default]\n"
      "min_ratio matmul.naive >= 0.07   # trailing comment\n"
      "order matmul.naive >= 4 x matmul.uncoalesced\n"
      "[sm_90]\n"
      "order reduction.grid_stride.float >= 2.5 * reduction.complete_unrolling.float\n"
      "min_ratio matmul.naive >= off\n"
      "  [gpu NVIDIA H100 80GB HBM3]   # a GPU model's name has spaces\n"
      "min_ratio basics.matr >= 0.44\n");
  ASSERT_EQ(file.gates.size(), 5u);
  EXPECT_EQ(file.gates[0].kind, GateKind::min_ratio);
  EXPECT_EQ(file.gates[0].a, "matmul.naive");
  EXPECT_DOUBLE_EQ(file.gates[0].threshold, 0.07);
  EXPECT_EQ(file.gates[0].line, 4);
  EXPECT_EQ(file.gates[0].section, "default");
  EXPECT_EQ(file.gates[1].name(), "order(matmul.naive / matmul.uncoalesced)");
  EXPECT_EQ(file.gates[1].rule(), "matmul.naive >= 4 x matmul.uncoalesced");
  EXPECT_EQ(file.gates[2].b, "reduction.complete_unrolling.float");
  EXPECT_EQ(file.gates[2].section, "sm_90");
  EXPECT_TRUE(file.gates[3].off);
  EXPECT_EQ(file.gates[4].section, "gpu NVIDIA H100 80GB HBM3");
  EXPECT_EQ(file.gates[4].line, 10);
}

TEST(BenchGatesParse, ErrorsNameTheLine) {
  expect_parse_error("min_ratio a.b >= 1\n", "gates.conf:1: gate before any section");
  expect_parse_error("[default]\n\nminratio a.b >= 1\n", "gates.conf:3: unknown gate kind 'minratio'");
  expect_parse_error("[default]\nmin_ratio a.b 1\n", "gates.conf:2: expected `min_ratio KEY >= THRESHOLD`");
  expect_parse_error("[default]\nmin_ratio a.b >= fast\n", "gates.conf:2: THRESHOLD must be a number > 0");
  expect_parse_error("[default]\nmin_ratio a.b >= -1\n", "THRESHOLD must be a number > 0");
  expect_parse_error("[default]\norder a.b >= 2 a.c\n", "gates.conf:2: expected `order KEY_A >= K x KEY_B`");
  expect_parse_error("[default]\norder a.b >= 0 x a.c\n", "K must be a number > 0");
  expect_parse_error("[default]\norder a.b >= 2 x a.b\n", "needs two different results");
  expect_parse_error("[default]\nmin_ratio Matmul-naive >= 1\n", "is not a result key");
  expect_parse_error("[gpu]\n", "gates.conf:1: unknown section [gpu]");
  expect_parse_error("[gpu ]\n", "gates.conf:1: unknown section [gpu ]");
  expect_parse_error("[sm90]\n", "unknown section [sm90] (expected [default], an architecture such as [sm_90], or [gpu NAME]");
  expect_parse_error("[gpu NVIDIA H200\n", "gates.conf:1: expected a section header");
  expect_parse_error("[default\n", "expected a section header");
  expect_parse_error("[default]\nmin_ratio a.b >= 1\nmin_ratio a.b >= 2\n",
                     "gates.conf:3: duplicate gate min_ratio(a.b) in [default] (first on line 2)");
}

TEST(BenchGatesParse, MissingFileIsAnError) {
  EXPECT_THROW(kl::bench::load_gates("/nonexistent/gates.conf"), kl::bench::GatesFileError);
}

// A directory opens and reads as an empty file, /dev/zero never ends: neither is a gates file.
TEST(BenchGatesParse, OnlyRegularFilesOfReviewedSize) {
  EXPECT_THROW(kl::bench::load_gates(testing::TempDir()), kl::bench::GatesFileError);
  try {
    kl::bench::load_gates("/dev/zero");
    FAIL() << "/dev/zero accepted";
  } catch (const kl::bench::GatesFileError& e) {
    EXPECT_NE(std::string(e.what()).find("is not a regular file"), std::string::npos) << e.what();
  }
  const std::string big = testing::TempDir() + "kl_big_gates.conf";
  std::ofstream(big) << std::string(kl::bench::max_gates_file_bytes + 1, '#');
  try {
    kl::bench::load_gates(big);
    FAIL() << "a gates file over the size limit accepted";
  } catch (const kl::bench::GatesFileError& e) {
    EXPECT_NE(std::string(e.what()).find("is larger than"), std::string::npos) << e.what();
  }
}

TEST(BenchGatesLayers, ArchSectionOverridesDefaultAndOffDrops) {
  const auto file = parse(
      "[default]\n"
      "min_ratio f.a >= 0.5\n"
      "min_ratio f.b >= 0.5\n"
      "order f.a >= 2 x f.b\n"
      "[sm_90]\n"
      "min_ratio f.a >= 0.8\n"
      "order f.a >= off x f.b\n"
      "min_ratio f.c >= 0.1\n"
      "[sm_80]\n"
      "min_ratio f.b >= 0.9\n");
  const std::vector<Gate> h100 = kl::bench::gates_for_device(file, "sm_90", "NVIDIA H100 80GB HBM3");
  ASSERT_EQ(h100.size(), 3u);
  EXPECT_EQ(h100[0].name(), "min_ratio(f.a)");
  EXPECT_DOUBLE_EQ(h100[0].threshold, 0.8);
  EXPECT_EQ(h100[0].section, "sm_90");
  EXPECT_DOUBLE_EQ(h100[1].threshold, 0.5);  // f.b from [default]; sm_80's is not ours
  EXPECT_EQ(h100[2].name(), "min_ratio(f.c)");
  const std::vector<Gate> other = kl::bench::gates_for_device(file, "sm_75", "Tesla T4");
  ASSERT_EQ(other.size(), 3u);
  EXPECT_EQ(other[2].name(), "order(f.a / f.b)");
}

// Two GPUs of one architecture differ where a ratio mixes a bandwidth ceiling with a kernel that
// does not scale with bandwidth: the [gpu NAME] layer holds one model's thresholds.
TEST(BenchGatesLayers, GpuSectionOverridesItsArchitectureForThatModelOnly) {
  const auto file = parse(
      "[default]\n"
      "min_ratio f.a >= 0.3\n"
      "[sm_90]\n"
      "min_ratio f.a >= 0.4\n"
      "min_ratio f.b >= 0.2\n"
      "[gpu NVIDIA H100 80GB HBM3]\n"
      "min_ratio f.a >= 0.5\n"
      "min_ratio f.b >= off\n"
      "order f.a >= 2 x f.c\n"
      "[gpu NVIDIA H200]\n"
      "min_ratio f.a >= 0.45\n");
  const std::vector<Gate> h100 = kl::bench::gates_for_device(file, "sm_90", "NVIDIA H100 80GB HBM3");
  ASSERT_EQ(h100.size(), 2u);
  EXPECT_DOUBLE_EQ(h100[0].threshold, 0.5);
  EXPECT_EQ(h100[0].section, "gpu NVIDIA H100 80GB HBM3");
  EXPECT_EQ(h100[1].name(), "order(f.a / f.c)");
  const std::vector<Gate> h200 = kl::bench::gates_for_device(file, "sm_90", "NVIDIA H200");
  ASSERT_EQ(h200.size(), 2u);
  EXPECT_DOUBLE_EQ(h200[0].threshold, 0.45);
  EXPECT_DOUBLE_EQ(h200[1].threshold, 0.2);
  // Another sm_90 part with no section of its own gets the architecture's gates.
  const std::vector<Gate> gh200 = kl::bench::gates_for_device(file, "sm_90", "NVIDIA GH200 480GB");
  ASSERT_EQ(gh200.size(), 2u);
  EXPECT_DOUBLE_EQ(gh200[0].threshold, 0.4);
  EXPECT_EQ(gh200[0].section, "sm_90");
}

TEST(BenchGatesEvaluate, PassFailAndRemeasuredPass) {
  const auto file = parse(
      "[default]\n"
      "min_ratio f.fast >= 0.5\n"
      "min_ratio f.noisy >= 0.5\n"
      "min_ratio f.slow >= 0.5\n");
  std::vector<Result> results = {result("f", "fast", 90, 100), result("f", "noisy", 30, 100),
                                  result("f", "slow", 10, 100)};
  Script script;
  script.next["f.noisy"] = {40, 70};   // passes on the second re-measurement
  script.next["f.slow"] = {20, 30};    // never reaches the threshold
  const auto ev = kl::bench::evaluate_gates(file.gates, results, {"f"}, script.bind(results), 2);
  ASSERT_EQ(ev.outcomes.size(), 3u);
  EXPECT_EQ(ev.outcomes[0].status, GateStatus::pass);
  EXPECT_EQ(ev.outcomes[0].remeasures, 0);
  EXPECT_EQ(ev.outcomes[1].status, GateStatus::remeasured_pass);
  EXPECT_EQ(ev.outcomes[1].remeasures, 2);
  EXPECT_DOUBLE_EQ(ev.outcomes[1].measured, 0.7);
  EXPECT_EQ(ev.outcomes[2].status, GateStatus::fail);
  EXPECT_EQ(ev.outcomes[2].remeasures, 2);
  EXPECT_DOUBLE_EQ(ev.outcomes[2].measured, 0.3);
  EXPECT_FALSE(ev.passed());
  EXPECT_EQ(script.calls, (std::vector<std::string>{"f.noisy", "f.noisy", "f.slow", "f.slow"}));
  EXPECT_EQ(to_string(ev.outcomes[1].status), "remeasured-pass");
  // The failure names the gate, the measured ratio and the threshold.
  EXPECT_NE(ev.outcomes[2].message.find("FAIL min_ratio(f.slow)"), std::string::npos) << ev.outcomes[2].message;
  EXPECT_NE(ev.outcomes[2].message.find("ratio to d2d_copy 0.300 < threshold 0.5"), std::string::npos)
      << ev.outcomes[2].message;
  EXPECT_NE(ev.outcomes[2].message.find("line 4"), std::string::npos) << ev.outcomes[2].message;
}

TEST(BenchGatesEvaluate, OrderGateRemeasuresBothSides) {
  const auto file = parse("[default]\norder f.tiled >= 1.5 x f.naive\n");
  std::vector<Result> results = {result("f", "tiled", 140, 1, "TFLOPS"), result("f", "naive", 100, 1, "TFLOPS")};
  Script script;
  script.next["f.tiled"] = {160};
  script.next["f.naive"] = {100};
  const auto ev = kl::bench::evaluate_gates(file.gates, results, {}, script.bind(results), 2);
  ASSERT_EQ(ev.outcomes.size(), 1u);
  EXPECT_EQ(ev.outcomes[0].status, GateStatus::remeasured_pass);
  EXPECT_DOUBLE_EQ(ev.outcomes[0].measured, 1.6);
  EXPECT_EQ(script.calls, (std::vector<std::string>{"f.tiled", "f.naive"}));
  EXPECT_NE(ev.outcomes[0].message.find("measured 1.60x >= threshold 1.5"), std::string::npos) << ev.outcomes[0].message;
}

// The two gates below: the library's case, re-measured, reads 100 instead of 70, and the fastest
// reading raises its ceiling (and the rung's, 100 -> 112); a re-measured rung reads the same.
namespace {
kl::bench::Remeasure library_reads_faster_again(std::vector<Result>& results, std::vector<std::string>& calls) {
  return [&results, &calls](const std::string& key) {
    calls.push_back(key);
    if (key != "f.library") return;
    for (Result& r : results) {
      if (r.key() == "f.library") r.value = 100;
      r.ceiling_value = r.key() == "f.library" ? 120 : 112;
    }
  };
}

// The rung (95, ceiling 100) gated at `rung_threshold` and the library (70) at 0.8, evaluated with
// the library reading faster again; `calls` records the re-measurements.
kl::bench::GateEvaluation evaluate_with_the_library_read_faster(const std::string& rung_threshold,
                                                                std::vector<std::string>& calls) {
  const auto file = parse(
      "[default]\n"
      "min_ratio f.rung >= " + rung_threshold + "\n"
      "min_ratio f.library >= 0.8\n");
  std::vector<Result> results = {result("f", "rung", 95, 100), result("f", "library", 70, 100)};
  return kl::bench::evaluate_gates(file.gates, results, {"f"}, library_reads_faster_again(results, calls), 2);
}
}  // namespace

// A re-measurement for a later gate can move the reading an earlier gate passed on: here the
// library's case, gated against the roof, reads faster when measured again, and every ratio to it
// falls. The rung's gate had passed at 0.95 and is decided again at 0.85: it fails. Decided once,
// in order, it would have passed on a ceiling the report no longer shows.
TEST(BenchGatesEvaluate, AGateIsDecidedAgainWhenAnotherGatesRemeasureMovesItsReading) {
  std::vector<std::string> calls;
  const auto ev = evaluate_with_the_library_read_faster("0.9", calls);
  ASSERT_EQ(ev.outcomes.size(), 2u);
  EXPECT_EQ(ev.outcomes[1].status, GateStatus::remeasured_pass);
  EXPECT_EQ(ev.outcomes[0].status, GateStatus::fail);
  EXPECT_NEAR(ev.outcomes[0].measured, 95.0 / 112, 1e-12);
  EXPECT_DOUBLE_EQ(ev.outcomes[0].first_measured, 0.95);
  EXPECT_EQ(ev.outcomes[0].remeasures, 2);  // measured again itself before failing
  EXPECT_NE(ev.outcomes[0].message.find("it had read 0.950 before other gates' re-measurements"), std::string::npos)
      << ev.outcomes[0].message;
  EXPECT_FALSE(ev.passed());
  EXPECT_EQ(calls, (std::vector<std::string>{"f.library", "f.rung", "f.rung"}));
}

// A gate whose reading moved and still holds keeps its pass, with the reading it stands on.
TEST(BenchGatesEvaluate, AGateWhoseReadingMovedButHoldsPassesOnTheLastReading) {
  std::vector<std::string> calls;
  const auto ev = evaluate_with_the_library_read_faster("0.5", calls);
  ASSERT_EQ(ev.outcomes.size(), 2u);
  EXPECT_EQ(ev.outcomes[0].status, GateStatus::pass);
  EXPECT_EQ(ev.outcomes[0].remeasures, 0);
  EXPECT_NEAR(ev.outcomes[0].measured, 95.0 / 112, 1e-12);
  EXPECT_NE(ev.outcomes[0].message.find("ratio to d2d_copy 0.848 >= threshold 0.5 (first 0.950"), std::string::npos)
      << ev.outcomes[0].message;
  EXPECT_TRUE(ev.passed());
}

TEST(BenchGatesEvaluate, MissingResultsAreSkippedOrFail) {
  const auto file = parse(
      "[default]\n"
      "min_ratio other.x >= 0.5\n"     // family not benched: not applicable
      "min_ratio f.typo >= 0.5\n"      // family benched whole: must exist
      "order f.a >= 1 x g.b\n");       // g benched with a variant filter: not applicable
  std::vector<Result> results = {result("f", "a", 1, 1)};
  const auto ev = kl::bench::evaluate_gates(file.gates, results, {"f"}, [](const std::string&) { FAIL(); }, 2);
  ASSERT_EQ(ev.outcomes.size(), 1u);
  EXPECT_EQ(ev.outcomes[0].status, GateStatus::fail);
  EXPECT_NE(ev.outcomes[0].message.find("names f.typo, which the bench did not produce"), std::string::npos)
      << ev.outcomes[0].message;
  EXPECT_EQ(ev.not_applicable, (std::vector<std::string>{"min_ratio(other.x)", "order(f.a / g.b)"}));
}

TEST(BenchGatesEvaluate, ACaseTooLargeForTheGpuMakesItsGatesNotApplicable) {
  const auto file = parse(
      "[default]\n"
      "min_ratio f.a.n1g >= 0.5\n"     // did not fit this GPU's memory: not applicable
      "order f.a.n1g >= 1 x f.typo\n"  // still names a result that should exist: fails
      "min_ratio f.a >= 0.5\n");       // measured: evaluated
  std::vector<Result> results = {result("f", "a", 1, 1)};
  const auto ev = kl::bench::evaluate_gates(file.gates, results, {"f"}, [](const std::string&) { FAIL(); }, 2,
                                            {"f.a.n1g"});
  ASSERT_EQ(ev.outcomes.size(), 2u);
  EXPECT_EQ(ev.outcomes[0].status, GateStatus::fail);
  EXPECT_NE(ev.outcomes[0].message.find("names f.typo, which the bench did not produce"), std::string::npos)
      << ev.outcomes[0].message;
  EXPECT_EQ(ev.outcomes[1].status, GateStatus::pass);
  EXPECT_EQ(ev.not_applicable, (std::vector<std::string>{"min_ratio(f.a.n1g)"}));
  // Without the key in `unmeasured` the same gate fails: the exemption is the list, not the size.
  const auto strict = kl::bench::evaluate_gates(file.gates, results, {"f"}, [](const std::string&) {}, 2);
  EXPECT_EQ(strict.not_applicable, std::vector<std::string>{});
  EXPECT_EQ(strict.outcomes.size(), 3u);
}

TEST(BenchGatesEvaluate, OrderAcrossMetricsFails) {
  const auto file = parse("[default]\norder f.a >= 1 x f.b\n");
  std::vector<Result> results = {result("f", "a", 1, 1, "TFLOPS"), result("f", "b", 1, 1, "GB/s")};
  const auto ev = kl::bench::evaluate_gates(file.gates, results, {"f"}, [](const std::string&) {}, 2);
  ASSERT_EQ(ev.outcomes.size(), 1u);
  EXPECT_EQ(ev.outcomes[0].status, GateStatus::fail);
  EXPECT_NE(ev.outcomes[0].message.find("compares TFLOPS with GB/s"), std::string::npos);
}

TEST(BenchGatesEvaluate, UngatedKeysAreListed) {
  const auto file = parse("[default]\nmin_ratio f.a >= 0.1\n");
  std::vector<Result> results = {result("f", "a", 1, 1), result("f", "b", 1, 1)};
  const auto ev = kl::bench::evaluate_gates(file.gates, results, {"f"}, [](const std::string&) {}, 2);
  EXPECT_EQ(kl::bench::ungated_keys(ev, results), std::vector<std::string>{"f.b"});
}

// ---- Gates that can fail: each gate the H100 runs sits within 0.8x of its lowest recorded
//      H100 measurement ("[H100 LO-HI, N runs]" in its comment) and at or below it; each gate
//      the H200 runs sits the same way within its H200 measurements ("[H200 LO-HI, N runs]").

namespace {

const std::string h100 = "NVIDIA H100 80GB HBM3";
const std::string h200 = "NVIDIA H200";

// A GPU model whose runs gates record, every gate it runs: its name as the CUDA runtime reports
// it, and the tag of its ranges in the comments ("H100" for "[H100 LO-HI, N runs]").
struct MeasuredGpu {
  std::string name, tag;
};
const MeasuredGpu measured_h100{h100, "H100"};
const MeasuredGpu measured_h200{h200, "H200"};

// Gate g's comment in `lines` (the file's text): from its '#' on, or "" without one.
std::string comment_of(const Gate& g, const std::vector<std::string>& lines) {
  const std::string& text = lines.at(static_cast<std::size_t>(g.line - 1));
  const std::size_t hash = text.find('#');
  return hash == std::string::npos ? "" : text.substr(hash);
}

// What is wrong with the gates `file` (whose text is `lines`) holds `gpu` to: a gate with no
// recorded measurement on it, one whose threshold lets the result fall more than 20% below the
// lowest measurement, one above the lowest measurement (it would fail on its own runs). One line
// per problem, naming the gate and its line.
std::vector<std::string> loose_or_unmeasured(const kl::bench::GatesFile& file, const std::vector<std::string>& lines,
                                             const MeasuredGpu& gpu) {
  const std::string recorded = "\\[" + gpu.tag + R"( ([0-9.]+)(?:-([0-9.]+))?, ([0-9]+) runs?\])";
  std::vector<std::string> problems;
  for (const Gate& g : kl::bench::gates_for_device(file, "sm_90", gpu.name)) {
    const std::string where = g.name() + " (line " + std::to_string(g.line) + ", [" + g.section + "])";
    const std::string comment = comment_of(g, lines);
    const std::vector<std::string> m = kl::test::search(comment, recorded);
    if (m.empty()) {
      problems.push_back(where + ": no [" + gpu.tag + " LO-HI, N runs] measurement in its comment");
      continue;
    }
    const double lowest = std::stod(m[1]);
    if (g.threshold < 0.8 * lowest * (1 - 1e-9))  // (0.8 x 1.08 is 0.86400000000000011 in binary)
      problems.push_back(where + ": threshold " + std::to_string(g.threshold) + " is below 0.8 x the lowest " + gpu.tag +
                         " measurement " + m[1] + ": a result 20% worse would still pass");
    if (g.threshold > lowest)
      problems.push_back(where + ": threshold " + std::to_string(g.threshold) + " is above the lowest " + gpu.tag +
                         " measurement " + m[1] + ": it fails on the runs it was set from");
  }
  return problems;
}

// How many of the gates `gpu` runs record a measurement on it.
std::size_t recorded_gates(const kl::bench::GatesFile& file, const std::vector<std::string>& lines, const MeasuredGpu& gpu) {
  const std::string mark = "[" + gpu.tag + " ";
  const std::vector<Gate> gates = kl::bench::gates_for_device(file, "sm_90", gpu.name);
  return static_cast<std::size_t>(std::count_if(gates.begin(), gates.end(), [&](const Gate& g) {
    return comment_of(g, lines).find(mark) != std::string::npos;
  }));
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The lab's gates file (KL_GATES_FILE, set by ctest), its path and its lines ("" and none unset).
struct LabGatesFile {
  std::string path;
  std::vector<std::string> lines;
};
LabGatesFile lab_gates_file() {
  const char* path = std::getenv("KL_GATES_FILE");
  if (path == nullptr) return {};
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return {path, lines_of(text.str())};
}

}  // namespace

TEST(BenchConsistency, EveryH100GateSitsWithin08OfItsLowestMeasurement) {
  const LabGatesFile lab = lab_gates_file();
  ASSERT_FALSE(lab.path.empty()) << "KL_GATES_FILE is not set (run through ctest)";
  const kl::bench::GatesFile file = kl::bench::load_gates(lab.path);
  for (const std::string& p : loose_or_unmeasured(file, lab.lines, measured_h100)) ADD_FAILURE() << lab.path << ": " << p;
  EXPECT_GE(kl::bench::gates_for_device(file, "sm_90", h100).size(), 100u) << "the H100 runs about a hundred gates";
}

// The H200 (sm_90 too) runs the [default], [sm_90] and [gpu NVIDIA H200] gates; every one records
// H200 runs and sits in that GPU's band as well, so no section can leave the H200 a gate it fails
// on its own runs, or one 20% loose.
TEST(BenchConsistency, EveryH200GateSitsWithin08OfItsLowestMeasurement) {
  const LabGatesFile lab = lab_gates_file();
  ASSERT_FALSE(lab.path.empty()) << "KL_GATES_FILE is not set (run through ctest)";
  const kl::bench::GatesFile file = kl::bench::load_gates(lab.path);
  for (const std::string& p : loose_or_unmeasured(file, lab.lines, measured_h200)) ADD_FAILURE() << lab.path << ": " << p;
  EXPECT_GE(recorded_gates(file, lab.lines, measured_h200), 140u) << "the H200 runs about 145 gates";
}

// The check bites: a [default] floor the H100 inherits, a threshold at 0.7x the lowest, one above
// it and one without a measurement are all reported; an H100 gate at 0.8x and the floor it
// replaces are not.
TEST(BenchGatesFile, LooseAboveAndUnmeasuredGatesAreReported) {
  const std::string text =
      "[default]\n"
      "min_ratio a.floor >= 0.3\n"
      "min_ratio a.replaced >= 0.3\n"
      "[sm_90]\n"
      "min_ratio a.loose >= 0.7            # [H100 1.0-1.1, 5 runs]\n"
      "min_ratio a.above >= 1.2            # [H100 1.0-1.1, 5 runs]\n"
      "order a.x >= 2 x a.y                # two times, measured once somewhere\n"
      "[gpu NVIDIA H100 80GB HBM3]\n"
      "min_ratio a.replaced >= 0.8         # [H100 1.0, 5 runs]\n";
  const std::vector<std::string> problems = loose_or_unmeasured(parse(text), lines_of(text), measured_h100);
  const auto reported = [&](const std::string& what) {
    return std::any_of(problems.begin(), problems.end(), [&](const std::string& p) { return p.find(what) == 0; });
  };
  EXPECT_TRUE(reported("min_ratio(a.floor) (line 2, [default]): no [H100")) << ::testing::PrintToString(problems);
  EXPECT_TRUE(reported("min_ratio(a.loose) (line 5, [sm_90]): threshold 0.700000 is below 0.8 x"));
  EXPECT_TRUE(reported("min_ratio(a.above) (line 6, [sm_90]): threshold 1.200000 is above"));
  EXPECT_TRUE(reported("order(a.x / a.y) (line 7, [sm_90]): no [H100"));
  EXPECT_FALSE(reported("min_ratio(a.replaced)"));
  EXPECT_EQ(problems.size(), 4u) << ::testing::PrintToString(problems);
}

// The H200 is held as the H100 is, to its own ranges: a gate it runs without one is reported (the
// H100's ranges do not count there), one with its range is held to it, and a gate of its own
// section replaces the [sm_90] one it overrides.
TEST(BenchGatesFile, H200RangesAreCheckedOnEveryGateItRuns) {
  const std::string text =
      "[default]\n"
      "min_ratio a.floor >= 0.3\n"
      "[sm_90]\n"
      "min_ratio a.fits >= 0.8             # [H100 1.0, 5 runs] [H200 0.9-1.0, 5 runs]\n"
      "min_ratio a.loose >= 0.7            # [H100 0.8, 5 runs] [H200 0.9-1.0, 5 runs]\n"
      "min_ratio a.above >= 0.95           # [H100 1.0, 5 runs] [H200 0.9, 5 runs]\n"
      "min_ratio a.h100_only >= 0.5        # [H100 1.0, 5 runs]\n"
      "min_ratio a.replaced >= 0.1         # [H100 0.12, 5 runs]\n"
      "[gpu NVIDIA H200]\n"
      "min_ratio a.replaced >= 0.5         # [H200 0.6, 5 runs]\n";
  const kl::bench::GatesFile file = parse(text);
  const std::vector<std::string> problems = loose_or_unmeasured(file, lines_of(text), measured_h200);
  const auto reported = [&](const std::string& what) {
    return std::any_of(problems.begin(), problems.end(), [&](const std::string& p) { return p.find(what) == 0; });
  };
  EXPECT_TRUE(reported("min_ratio(a.floor) (line 2, [default]): no [H200")) << ::testing::PrintToString(problems);
  EXPECT_TRUE(reported("min_ratio(a.loose) (line 5, [sm_90]): threshold 0.700000 is below 0.8 x the lowest H200"));
  EXPECT_TRUE(reported("min_ratio(a.above) (line 6, [sm_90]): threshold 0.950000 is above the lowest H200"));
  EXPECT_TRUE(reported("min_ratio(a.h100_only) (line 7, [sm_90]): no [H200"));
  EXPECT_FALSE(reported("min_ratio(a.replaced)"));
  EXPECT_EQ(problems.size(), 4u) << ::testing::PrintToString(problems);
  EXPECT_EQ(recorded_gates(file, lines_of(text), measured_h200), 4u);
}
