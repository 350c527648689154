// The bench's roofline check, repetition policy, reports (JSON, Markdown, TSV) and the
// generated LESSONS.md, all on hand-made results. No GPU.
#include "core/format.hpp"
#include "core/lessons.hpp"
#include "core/repetitions.hpp"
#include "core/report.hpp"
#include "core/size_sweep.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

namespace {

using kl::bench::Result;
using kl::bench::Roof;

// What an H100 80GB HBM3 (SXM) reports through cudaDeviceGetAttribute.
kl::bench::DeviceAttributes h100() {
  kl::bench::DeviceAttributes d;
  d.name = "NVIDIA H100 80GB HBM3";
  d.cc_major = 9;
  d.cc_minor = 0;
  d.sm_count = 132;
  d.sm_clock_khz = 1980000;
  d.mem_clock_khz = 2619000;
  d.bus_width_bits = 5120;
  d.l2_bytes = 50331648;
  return d;
}

Result make(const std::string& family, const std::string& variant, const std::string& dtype, double value,
            const std::string& metric, const std::string& ceiling, double ceiling_value, Roof roof) {
  Result r;
  r.family = family;
  r.variant = variant;
  r.dtype = dtype;
  r.shape = "n=4";
  r.metric = metric;
  r.value = value;
  r.median_ms = 1.5;
  r.min_ms = 1.25;
  r.max_ms = 2;
  r.reps = 7;
  r.ceiling = ceiling;
  r.ceiling_value = ceiling_value;
  r.intensity = 0.25;
  r.roof = roof;
  return r;
}

kl::bench::Report sample_report() {
  kl::bench::Report rep;
  rep.gpu = "NVIDIA H100 80GB HBM3";
  rep.arch = "sm_90";
  rep.roofline = kl::bench::roofline_of(h100());
  rep.ceilings = {{"d2d_copy", "GB/s", 3000, "cudaMemcpy"}};
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
        "\"excluded\": [", "\"what\": \"sync\"", "\"ungated\": [", "\"reduction.grid_stride.float\""})
    EXPECT_NE(json.find(field), std::string::npos) << field << "\n" << json;
  // Balanced, and nothing JSON cannot hold.
  int depth = 0;
  for (const char c : json) depth += c == '{' || c == '[' ? 1 : c == '}' || c == ']' ? -1 : 0;
  EXPECT_EQ(depth, 0);
  EXPECT_EQ(json.find("nan"), std::string::npos);
  EXPECT_EQ(kl::bench::json_number(NAN), "null");
  EXPECT_EQ(kl::bench::json_string("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\u0001\"");
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
  EXPECT_NE(md.find("- `d2d_copy`: 3000 GB/s"), std::string::npos) << md;
}

TEST(BenchFormat, ThreeSignificantFigures) {
  EXPECT_EQ(kl::bench::sig3(51.43), "51.4");
  EXPECT_EQ(kl::bench::sig3(2935.2), "2935");
  EXPECT_EQ(kl::bench::sig3(0.01789), "0.0179");
  EXPECT_EQ(kl::bench::sig3(0.000784), "0.000784");
  EXPECT_EQ(kl::bench::sig3(0), "0");
}

TEST(BenchLessons, HoldsDiffersGatedAndGeneratedHeader) {
  const kl::bench::Roofline roofline = kl::bench::roofline_of(h100());
  std::vector<Result> results = {
      make("matmul", "naive", "", 4.58, "TFLOPS", "cublas_sgemm", 51.4, Roof::fp32),
      make("matmul", "uncoalesced", "", 0.92, "TFLOPS", "cublas_sgemm", 51.4, Roof::fp32),
      make("matmul", "tiled_16", "", 8.19, "TFLOPS", "cublas_sgemm", 51.4, Roof::fp32),
      make("matmul", "tiled_32", "", 9.02, "TFLOPS", "cublas_sgemm", 51.4, Roof::fp32),
      make("matmul", "cublas_sgemm", "", 51.4, "TFLOPS", "fp32_peak", 66.9, Roof::fp32)};
  std::istringstream text(
      "[default]\norder matmul.naive >= 3.98 x matmul.uncoalesced\norder matmul.tiled_32 >= 0.88 x matmul.tiled_16\n");
  const auto gates = kl::bench::parse_gates(text, "g").gates;
  const auto& claims = kl::bench::seed_claims();
  auto claim = [&](const std::string& a, const std::string& b) -> const kl::bench::SeedClaim& {
    for (const auto& c : claims)
      if (c.a == a && c.b == b) return c;
    throw std::runtime_error("no claim " + a + " vs " + b);
  };
  const auto coalescing = kl::bench::judge_claim(claim("matmul.naive", "matmul.uncoalesced"), results, roofline, gates, "H100");
  EXPECT_TRUE(coalescing.holds);
  EXPECT_NEAR(coalescing.value, 4.978, 0.001);
  EXPECT_NE(coalescing.text.find("holds; gated by `order(matmul.naive / matmul.uncoalesced)`"), std::string::npos)
      << coalescing.text;
  const auto tiles = kl::bench::judge_claim(claim("matmul.tiled_16", "matmul.tiled_32"), results, roofline, gates, "H100");
  EXPECT_FALSE(tiles.holds);
  EXPECT_NE(tiles.text.find("**differs** on H100: matmul.tiled_16 runs at 0.908x of matmul.tiled_32, where the seed "
                            "says 1.15x; the gate asserts what holds here instead: `order(matmul.tiled_32 / "
                            "matmul.tiled_16)`"),
            std::string::npos)
      << tiles.text;
  const auto cublas = kl::bench::judge_claim(claim("matmul.cublas_sgemm", ""), results, roofline, gates, "H100");
  EXPECT_TRUE(cublas.holds);  // 51.4 / 66.9 = 76.8% against the seed's 77%
  EXPECT_NE(cublas.text.find("holds; not gated"), std::string::npos) << cublas.text;
  const auto reduction = kl::bench::judge_claim(claims.back(), results, roofline, gates, "H100");
  EXPECT_FALSE(reduction.measured);
  EXPECT_EQ(reduction.text, "not measured in this run");

  const std::string md =
      kl::bench::lessons_markdown(claims, results, roofline, gates, "H100", "sm_90", "kernel-lab bench --lessons X");
  EXPECT_EQ(md.rfind("<!-- Generated by `kernel-lab bench --lessons X`. Do not edit by hand", 0), 0u) << md;
  EXPECT_NE(md.find("## Where H100 differs from the seeds"), std::string::npos) << md;
  EXPECT_NE(md.find("\"tile 16 beats tile 32 through occupancy\": matmul.tiled_16 runs at 0.908x"), std::string::npos)
      << md;
}

// The SGEMM ladder section: each rung at 4096^3 with its ratio to cuBLAS, its share of the FP32
// peak and its factor over the rung before, then the swept shapes' ratios from their own keys.
TEST(BenchLessons, SgemmLadderTableFromTheRunsResults) {
  const kl::bench::Roofline roofline = kl::bench::roofline_of(h100());
  std::vector<Result> results = {make("matmul", "cublas_sgemm", "", 50, "TFLOPS", "fp32_peak", 66.9, Roof::fp32),
                                 make("matmul", "tiled_32", "", 10, "TFLOPS", "cublas_sgemm", 50, Roof::fp32),
                                 make("matmul", "block_tile_1d", "", 20, "TFLOPS", "cublas_sgemm", 50, Roof::fp32)};
  Result swept = make("matmul", "block_tile_1d", "", 12, "TFLOPS", "cublas_sgemm_m1024_n1024_k1024", 40, Roof::fp32);
  swept.sweep = "m1024_n1024_k1024";
  EXPECT_EQ(swept.key(), "matmul.block_tile_1d.m1024_n1024_k1024");
  results.push_back(swept);
  const std::string md = kl::bench::lessons_markdown({}, results, roofline, {}, "H100", "sm_90", "x");
  EXPECT_NE(md.find("## Beyond the seeds: the SGEMM ladder"), std::string::npos) << md;
  // 20 TFLOPS: 0.4x of cuBLAS's 50, 20 / 66.9 (the H100's FP32 peak) = 29.9%, 2x tiled_32.
  EXPECT_NE(md.find("| `block_tile_1d` | 20.0 | 0.400x | 29.9% | 2.00x | MIO-throttle"), std::string::npos) << md;
  EXPECT_NE(md.find("| `tuned` | - | - | - | - |"), std::string::npos) << md;  // not benched in this run
  EXPECT_NE(md.find("| `block_tile_1d` | 0.400x | 0.300x | -"), std::string::npos) << md;  // 12 / 40 at 1024^3
  // Without cuBLAS at 4096^3 (matmul not benched) there is no section.
  results.erase(results.begin());
  EXPECT_EQ(kl::bench::lessons_markdown({}, results, roofline, {}, "H100", "sm_90", "x").find("SGEMM ladder"),
            std::string::npos);
}

// The tensor-core section: each rung at 4096^3 against GemmEx, its share of the FP16 tensor peak,
// its factor over the rung before, and its ratio at 8192^3 from that shape's own key.
TEST(BenchLessons, TensorCoreLadderTableFromTheRunsResults) {
  const kl::bench::Roofline roofline = kl::bench::roofline_of(h100());
  std::vector<Result> results = {
      make("matmul", "cublas_gemmex_fp16", "", 700, "TFLOPS", "fp16_tensor_peak", roofline.fp16_tensor_tflops,
           Roof::fp16_tensor),
      make("matmul", "wmma_global", "", 35, "TFLOPS", "cublas_gemmex_fp16", 700, Roof::fp16_tensor),
      make("matmul", "wmma_shared", "", 140, "TFLOPS", "cublas_gemmex_fp16", 700, Roof::fp16_tensor)};
  Result large = make("matmul", "wmma_shared", "", 150, "TFLOPS", "cublas_gemmex_fp16_m8192_n8192_k8192", 750,
                      Roof::fp16_tensor);
  large.sweep = "m8192_n8192_k8192";
  results.push_back(large);
  const std::string md = kl::bench::lessons_markdown({}, results, roofline, {}, "H100", "sm_90", "x");
  EXPECT_NE(md.find("## Beyond the seeds: the tensor-core ladder"), std::string::npos) << md;
  // 140 TFLOPS: 0.2x GemmEx's 700, 4x wmma_global, 150 / 750 = 0.2x at 8192^3.
  const std::string peak = kl::bench::sig3(100 * 140 / roofline.fp16_tensor_tflops) + "%";
  EXPECT_NE(md.find("| `wmma_shared` | 140 | 0.200x | " + peak + " | 4.00x | 0.200x |"), std::string::npos) << md;
  EXPECT_NE(md.find("| `wgmma_tma` | - | - | - | - | - |"), std::string::npos) << md;  // not benched in this run
  // Without the rungs (matmul benched before they existed, or another family) there is no section.
  results.erase(results.begin() + 1, results.end());
  EXPECT_EQ(kl::bench::lessons_markdown({}, results, roofline, {}, "H100", "sm_90", "x").find("tensor-core ladder"),
            std::string::npos);
}

// The memory-bound section: each rung beside the seed rung it speeds up (share of its ceiling,
// the ceiling, the speedup), and the size sweep when the run has one; no section without the rungs.
TEST(BenchLessons, MemoryBoundRungsBesideTheirSeedRungsWithTheSweep) {
  const kl::bench::Roofline roofline = kl::bench::roofline_of(h100());
  std::vector<Result> results = {
      make("reduction", "grid_stride", "float", 2870, "GB/s", "cub_sum.float", 3000, Roof::dram_bandwidth),
      make("reduction", "vectorized_single_launch", "float", 2970, "GB/s", "cub_sum.float", 3000, Roof::dram_bandwidth),
      make("basics", "fill_vectorized", "", 3000, "GB/s", "memset_256MiB", 3100, Roof::dram_bandwidth)};
  EXPECT_EQ(kl::bench::lessons_markdown({}, {results[0]}, roofline, {}, "H100", "sm_90", "x").find("memory-bound"),
            std::string::npos);
  std::string md = kl::bench::lessons_markdown({}, results, roofline, {}, "H100", "sm_90", "x");
  EXPECT_NE(md.find("## Beyond the seeds: memory-bound kernels at the bandwidth limit"), std::string::npos) << md;
  // 2970 / 3000 of CUB beside grid_stride's 2870 / 3000: 1.03x.
  EXPECT_NE(md.find("| `reduction.grid_stride.float` | 0.957x | `reduction.vectorized_single_launch.float` | 0.990x | "
                    "cub_sum.float 3000 GB/s | 1.03x |"),
            std::string::npos)
      << md;
  // fill_arr not in this run: its cells are "-", the rung's are there.
  EXPECT_NE(md.find("| `basics.fill_arr` | - | `basics.fill_vectorized` | 0.968x | memset_256MiB 3100 GB/s | - |"),
            std::string::npos)
      << md;
  EXPECT_EQ(md.find("Size sweep"), std::string::npos);
  Result swept = results[1];
  swept.sweep = "n64k";
  swept.ceiling = "cub_sum.float_n64k";
  results.push_back(swept);
  md = kl::bench::lessons_markdown({}, results, roofline, {}, "H100", "sm_90", "x");
  EXPECT_NE(md.find("Size sweep (`kernel-lab bench --sweep`)"), std::string::npos) << md;
  EXPECT_NE(md.find("| `reduction.vectorized_single_launch.float` | cub_sum.float | 99.0% | n=2^16 |"),
            std::string::npos)
      << md;
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
