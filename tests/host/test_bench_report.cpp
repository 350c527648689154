// The bench's roofline check, repetition policy and reports (JSON, Markdown, TSV), all on
// hand-made results. No GPU.
#include "core/format.hpp"
#include "core/repetitions.hpp"
#include "core/report.hpp"
#include "core/report_reader.hpp"
#include "core/size_sweep.hpp"

#include "bench_results.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

namespace {

using kl::bench::Result;
using kl::bench::Roof;
using kl::test::h100;
using kl::test::make;

kl::bench::Report sample_report() {
  kl::bench::Report rep;
  rep.gpu = "NVIDIA H100 80GB HBM3";
  rep.arch = "sm_90";
  rep.roofline = kl::bench::roofline_of(h100());
  rep.ceilings = {{"d2d_copy", "GB/s", 3000, "cudaMemcpy"},
                  {"cublas_sgemm", "TFLOPS", 51.4, "cuBLAS SGEMM", "matmul.cublas_sgemm", {48, 51.4}}};
  rep.results = {make("matmul", "naive", "", 4.58, "TFLOPS", "cublas_sgemm", 51.4, Roof::fp32),
                 make("reduction", "grid_stride", "float", 2954, "GB/s", "cub_sum.float", 2935, Roof::dram_bandwidth)};
  std::istringstream gates("[default]\nmin_ratio matmul.naive >= 0.5\n");
  const auto file = kl::bench::parse_gates(gates, "bench/gates.conf");
  rep.gates_evaluated = true;
  rep.gates_path = "bench/gates.conf";
  rep.gates = kl::bench::evaluate_gates(file.gates, rep.results, {"matmul"}, [](const std::string&) {}, 0);
  rep.excluded = {{"sync", "the deadlock lab"}};
  return rep;
}

}  // namespace

TEST(BenchRoofline, H100FromDeviceAttributes) {
  const kl::bench::Roofline r = kl::bench::roofline_of(h100());
  EXPECT_NEAR(r.dram_gbps, 3352.3, 0.1);              // 2 x 2619 MHz x 640 bytes
  EXPECT_NEAR(r.fp32_tflops, 66.9, 0.05);             // 132 x 128 x 2 x 1.98 GHz
  EXPECT_NEAR(r.fp16_tensor_tflops, 1070.5, 0.1);     // 132 x 4096 x 1.98 GHz
  EXPECT_NEAR(r.int32_tops, 66.9, 0.05);
  EXPECT_EQ(kl::bench::arch_name(9, 0), "sm_90");
  EXPECT_EQ(kl::bench::fp32_lanes_per_sm(8, 0), 64);
  EXPECT_EQ(kl::bench::fp32_lanes_per_sm(8, 6), 128);
  EXPECT_EQ(kl::bench::fp16_tensor_flops_per_clock_per_sm(8, 0), 2048);
  EXPECT_EQ(kl::bench::fp16_tensor_flops_per_clock_per_sm(99, 9), 8192);  // unknown: the largest known
}

TEST(BenchRoofline, RejectsAResultFasterThanPhysics) {
  const kl::bench::Roofline r = kl::bench::roofline_of(h100());
  // At the roof and within the 5% tolerance: accepted.
  EXPECT_NO_THROW(kl::bench::check_against_roofline(
      make("reduction", "cub_sum", "float", 3352 * 1.04, "GB/s", "d2d_copy", 3000, Roof::dram_bandwidth), r));
  try {
    kl::bench::check_against_roofline(
        make("reduction", "cub_sum", "float", 5000, "GB/s", "d2d_copy", 3000, Roof::dram_bandwidth), r);
    FAIL() << "5000 GB/s on a 3352 GB/s part was accepted";
  } catch (const kl::bench::HarnessError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("harness error: reduction.cub_sum.float measured 5000.00 GB/s, above the physical "
                        "dram_peak of 3352.32 GB/s (+5% tolerance)"),
              std::string::npos)
        << what;
  }
  EXPECT_THROW(kl::bench::check_against_roofline(
                   make("matmul", "tiled_16", "", 80, "TFLOPS", "cublas_sgemm", 51, Roof::fp32), r),
               kl::bench::HarnessError);
  // GemmEx is held against the tensor-core roof, not the FP32 one.
  EXPECT_NO_THROW(kl::bench::check_against_roofline(
      make("matmul", "cublas_gemmex_fp16", "", 700, "TFLOPS", "fp16_tensor_peak", 1070, Roof::fp16_tensor), r));
}

TEST(BenchRepetitions, AboutTwoHundredMillisecondsWithinBounds) {
  const kl::bench::RepetitionPolicy p;
  EXPECT_EQ(kl::bench::repetitions_for(0.4, p), 20);    // fast: capped
  EXPECT_EQ(kl::bench::repetitions_for(30, p), 7);      // ceil(200 / 30)
  EXPECT_EQ(kl::bench::repetitions_for(150, p), 3);     // slow: at least 3
  EXPECT_EQ(kl::bench::repetitions_for(0, p), 20);      // a timer that read 0
  kl::bench::RepetitionPolicy fixed;
  fixed.fixed = 5;
  EXPECT_EQ(kl::bench::repetitions_for(0.4, fixed), 5);  // --reps wins
}

// The idle before a matmul case follows the work since the last one, up to 150 ms.
TEST(BenchCoolDown, IdlesAsLongAsTheGpuWorkedUpTo150Ms) {
  EXPECT_EQ(kl::bench::cool_down_ms(12.5), 12.5);  // a short case: a short rest
  EXPECT_EQ(kl::bench::cool_down_ms(149), 149);
  EXPECT_EQ(kl::bench::cool_down_ms(150), 150);
  EXPECT_EQ(kl::bench::cool_down_ms(2000), 150);  // a long one: capped
  EXPECT_EQ(kl::bench::cool_down_ms(0), 0);
  EXPECT_EQ(kl::bench::cool_down_ms(-1), 0);  // never negative
}

TEST(BenchReport, TsvIsOneExactLinePerResult) {
  EXPECT_EQ(kl::bench::to_tsv(sample_report()),
            "matmul.naive\tTFLOPS\t4.58\t1.5\t1.25\t2\n"
            "reduction.grid_stride.float\tGB/s\t2954\t1.5\t1.25\t2\n");
}

TEST(BenchReport, JsonHasEveryAgreedField) {
  const std::string json = kl::bench::to_json(sample_report());
  for (const char* field :
       {"\"gpu\": \"NVIDIA H100 80GB HBM3\"", "\"arch\": \"sm_90\"", "\"results\": [", "\"family\": \"matmul\"",
        "\"variant\": \"naive\"", "\"metric\": \"TFLOPS\"", "\"value\": 4.58", "\"median_ms\": 1.5",
        "\"min_ms\": 1.25", "\"max_ms\": 2", "\"reps\": 7", "\"ceiling\": \"cublas_sgemm\"", "\"ceiling_value\": 51.4",
        "\"ratio\": 0.0891051", "\"intensity\": 0.25", "\"key\": \"reduction.grid_stride.float\"", "\"gates\": [",
        "\"name\": \"min_ratio(matmul.naive)\"", "\"kind\": \"min_ratio\"", "\"status\": \"fail\"",
        "\"measured\": 0.0891051", "\"threshold\": 0.5", "\"message\": \"FAIL min_ratio(matmul.naive)",
        "\"excluded\": [", "\"what\": \"sync\"", "\"ungated\": [", "\"reduction.grid_stride.float\"",
        "\"reference\": \"matmul.cublas_sgemm\", \"readings\": [48, 51.4]", "\"reference\": \"\", \"readings\": []",
        "\"reps\": 7, \"runs_ms\": [2, 1.5, 1.25, 1.5, 1.5, 1.75, 1.25], \"ceiling\""})
    EXPECT_NE(json.find(field), std::string::npos) << field << "\n" << json;
  // A reference's case and readings come back as they were written.
  const kl::bench::Report back = kl::bench::read_report_json(json, "sample.json");
  ASSERT_EQ(back.ceilings.size(), 2u);
  EXPECT_EQ(back.ceilings[1].reference, "matmul.cublas_sgemm");
  EXPECT_EQ(back.ceilings[1].readings, (std::vector<double>{48, 51.4}));
  EXPECT_TRUE(back.ceilings[0].readings.empty());
  // And every timed run of a result, in the order they ran.
  ASSERT_EQ(back.results.size(), 2u);
  EXPECT_EQ(back.results[0].runs_ms, (std::vector<double>{2, 1.5, 1.25, 1.5, 1.5, 1.75, 1.25}));
  // Balanced, and nothing JSON cannot hold.
  int depth = 0;
  for (const char c : json) depth += c == '{' || c == '[' ? 1 : c == '}' || c == ']' ? -1 : 0;
  EXPECT_EQ(depth, 0);
  EXPECT_EQ(json.find("nan"), std::string::npos);
  EXPECT_EQ(kl::bench::json_number(NAN), "null");
  EXPECT_EQ(kl::bench::json_string("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\u0001\"");
}

// A report's key words name files (ladder-FAMILY.svg), so a family that is a path, or any word
// outside the key's characters, is refused; so is a result written twice in one report.
TEST(BenchReport, ReadingRefusesKeyWordsThatAreNotKeyWordsAndRepeatedResults) {
  const auto refusal = [](const kl::bench::Report& rep) {
    try {
      kl::bench::read_report_json(kl::bench::to_json(rep), "r.json");
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(refusal(sample_report()), "accepted");
  kl::bench::Report traversal = sample_report();
  traversal.results[0].family = "a/../../escaped";
  EXPECT_NE(refusal(traversal).find("'a/../../escaped' is not a key word"), std::string::npos) << refusal(traversal);
  kl::bench::Report twice = sample_report();
  twice.results.push_back(twice.results[0]);
  EXPECT_NE(refusal(twice).find("result matmul.naive is in the report twice"), std::string::npos) << refusal(twice);
}

TEST(BenchReport, MarkdownRooflineTableAndGates) {
  const std::string md = kl::bench::to_markdown(sample_report());
  EXPECT_NE(md.find("# kernel-lab bench: NVIDIA H100 80GB HBM3 (sm_90)"), std::string::npos) << md;
  EXPECT_NE(md.find("| result | shape | intensity (op/B) | achieved | median ms (min..max) | reps | ceiling | % of "
                    "ceiling | % of roof |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| `matmul.naive` | n=4 | 0.250 | 4.58 TFLOPS | 1.500 (1.250..2.000) | 7 | cublas_sgemm 51.4 | "
                    "8.91% | 6.85% |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| `min_ratio(matmul.naive)` | matmul.naive ratio to its ceiling >= 0.5 | **fail** | 0.0891 | 0.5 |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("Not gated: `reduction.grid_stride.float`"), std::string::npos) << md;
  EXPECT_NE(md.find("- `sync`: the deadlock lab"), std::string::npos) << md;
  EXPECT_NE(md.find("- `d2d_copy`: 3000 GB/s (cudaMemcpy)"), std::string::npos) << md;
  EXPECT_NE(md.find("- `cublas_sgemm`: 51.4 TFLOPS, the fastest of 48.0 and 51.4 (cuBLAS SGEMM)"), std::string::npos) << md;
}

TEST(BenchFormat, ThreeSignificantFigures) {
  EXPECT_EQ(kl::bench::sig3(51.43), "51.4");
  EXPECT_EQ(kl::bench::sig3(2935.2), "2935");
  EXPECT_EQ(kl::bench::sig3(0.01789), "0.0179");
  EXPECT_EQ(kl::bench::sig3(0.000784), "0.000784");
  EXPECT_EQ(kl::bench::sig3(0), "0");
}

// A swept result's key has four parts, and a gate may name it.
TEST(BenchGates, SweptKeysAreResultKeys) {
  std::istringstream text("[default]\nmin_ratio matmul.tuned.m8192_n1024_k4096 >= 0.8\n");
  const auto file = kl::bench::parse_gates(text, "g");
  ASSERT_EQ(file.gates.size(), 1u);
  EXPECT_EQ(file.gates[0].a, "matmul.tuned.m8192_n1024_k4096");
  std::istringstream bad("[default]\nmin_ratio matmul.tuned.a.b.c >= 0.8\n");
  try {
    kl::bench::parse_gates(bad, "g");
    ADD_FAILURE() << "a five-part key was accepted";
  } catch (const kl::bench::GatesFileError& e) {
    EXPECT_NE(std::string(e.what()).find("is not a result key (family.variant[.dtype][.sweep]"), std::string::npos)
        << e.what();
  }
}

// Swept sizes are the powers of 4 from 2^12 to 2^30, named by tags result keys allow.
TEST(BenchSizeSweep, TagsNameEverySizeAndOnlyThose) {
  const std::vector<std::int64_t>& sizes = kl::bench::sweep_sizes();
  ASSERT_EQ(sizes.size(), 10u);
  EXPECT_EQ(sizes.front(), 4096);
  EXPECT_EQ(sizes.back(), std::int64_t{1} << 30);
  EXPECT_EQ(kl::bench::size_tag(4096), "n4k");
  EXPECT_EQ(kl::bench::size_tag(65536), "n64k");
  EXPECT_EQ(kl::bench::size_tag(std::int64_t{1} << 20), "n1m");
  EXPECT_EQ(kl::bench::size_tag(std::int64_t{1} << 28), "n256m");
  EXPECT_EQ(kl::bench::size_tag(std::int64_t{1} << 30), "n1g");
  for (const std::int64_t n : sizes) EXPECT_EQ(kl::bench::size_of_tag(kl::bench::size_tag(n)), n);
  EXPECT_FALSE(kl::bench::size_of_tag("m1024_n1024_k1024"));
  EXPECT_FALSE(kl::bench::size_of_tag(""));
  EXPECT_FALSE(kl::bench::size_of_tag("n32k"));
  EXPECT_THROW(kl::bench::size_tag(8192), std::invalid_argument);
  EXPECT_EQ(kl::bench::size_text(65536), "2^16");
  EXPECT_EQ(kl::bench::size_text(1000), "1000");
}

// The summary: one row per variant in ascending n, each point's share of its own ceiling, and
// the smallest n at which the share reaches 90% ("never" when no n does).
TEST(BenchSizeSweep, MarkdownStatesTheSmallestSizeAtTheLimit) {
  std::vector<Result> results;
  const auto point = [&](const std::string& variant, std::int64_t n, double value, double ceiling) {
    Result r = make("reduction", variant, "float", value, "GB/s", "cub_sum.float_" + kl::bench::size_tag(n), ceiling,
                    Roof::dram_bandwidth);
    r.sweep = kl::bench::size_tag(n);
    results.push_back(r);
  };
  point("fast", std::int64_t{1} << 16, 95, 100);  // listed out of order on purpose
  point("fast", 4096, 50, 100);
  point("fast", std::int64_t{1} << 14, 89.9, 100);
  point("slow", 4096, 10, 100);
  point("slow", std::int64_t{1} << 16, 80, 100);
  results.push_back(make("reduction", "fast", "float", 3000, "GB/s", "cub_sum.float", 3000, Roof::dram_bandwidth));
  const std::vector<kl::bench::SweepRow> rows = kl::bench::sweep_rows(results);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].key, "reduction.fast.float");
  ASSERT_EQ(rows[0].points.size(), 3u);
  EXPECT_EQ(rows[0].points[0].first, 4096);
  EXPECT_EQ(rows[0].limit_from(), std::int64_t{1} << 16);  // 89.9% at 2^14 is short of 90%
  EXPECT_FALSE(rows[1].limit_from());
  const std::string md = kl::bench::sweep_markdown(results);
  EXPECT_NE(md.find("| variant | ceiling | n=2^12 | n=2^14 | n=2^16 | reaches 90.0% from |"), std::string::npos) << md;
  EXPECT_NE(md.find("| `reduction.fast.float` | cub_sum.float | 50.0% | 89.9% | 95.0% | n=2^16 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| `reduction.slow.float` | cub_sum.float | 10.0% | - | 80.0% | never |"), std::string::npos) << md;
  kl::bench::Report rep = sample_report();
  EXPECT_EQ(kl::bench::to_markdown(rep).find("## Size sweeps"), std::string::npos);
  rep.results = results;
  EXPECT_NE(kl::bench::to_markdown(rep).find("## Size sweeps (% of the ceiling measured at the same n)"),
            std::string::npos);
  EXPECT_EQ(kl::bench::sweep_markdown({}), "");
}
