// The bench's rule for a reference it measured (reference_readings.hpp): read again, the fastest
// reading kept, one more where two disagree; and the planted case it exists for, a gate that
// passed on a slow reading of its reference. No GPU.
#include "core/gates.hpp"
#include "core/reference_readings.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace {

using kl::bench::Ceiling;
using kl::bench::GateStatus;
using kl::bench::Result;

// GemmEx at 2048^3 as the H100 read it once: 142 TFLOPS, a quarter of its usual speed.
Ceiling gemmex_read_slow() {
  return {"cublas_gemmex_fp16_m2048_n2048_k2048", "TFLOPS", 142, "cuBLAS GemmEx",
          "matmul.cublas_gemmex_fp16.m2048_n2048_k2048", {142}};
}

Result result(const std::string& variant, double value, const Ceiling& c) {
  Result r;
  r.family = "matmul";
  r.variant = variant;
  r.sweep = "m2048_n2048_k2048";
  r.metric = "TFLOPS";
  r.value = value;
  r.ceiling = c.name;
  r.ceiling_value = c.value;
  return r;
}

std::vector<kl::bench::Gate> gates(const std::string& text) {
  std::istringstream in(text);
  return kl::bench::parse_gates(in, "gates.conf").gates;
}

}  // namespace

TEST(BenchReferenceReadings, ReadAgainUntilTwoAgreeOrThree) {
  Ceiling c = gemmex_read_slow();
  EXPECT_TRUE(kl::bench::needs_reading(c));  // one reading
  kl::bench::add_reading(c, 585);
  EXPECT_DOUBLE_EQ(c.value, 585);  // the fastest
  EXPECT_TRUE(kl::bench::needs_reading(c));  // 142 is 76% below 585: one more
  kl::bench::add_reading(c, 580);
  EXPECT_DOUBLE_EQ(c.value, 585);
  EXPECT_FALSE(kl::bench::needs_reading(c));  // three readings at most
  EXPECT_EQ(c.readings, (std::vector<double>{142, 585, 580}));

  Ceiling steady = gemmex_read_slow();
  steady.value = 580;
  steady.readings = {580};
  kl::bench::add_reading(steady, 560);  // 3.4% below: they agree
  EXPECT_DOUBLE_EQ(steady.value, 580);
  EXPECT_FALSE(kl::bench::needs_reading(steady));

  Ceiling copy{"d2d_copy", "GB/s", 3000, "cudaMemcpy"};  // measured by the bench itself: no reference
  EXPECT_FALSE(kl::bench::needs_reading(copy));
}

TEST(BenchReferenceReadings, AGatePassedOnASlowReferenceFailsOnceItIsReadAgain) {
  Ceiling c = gemmex_read_slow();
  std::vector<Result> results = {result("wgmma_tma_store", 500, c)};
  const auto gated = gates("[default]\nmin_ratio matmul.wgmma_tma_store.m2048_n2048_k2048 >= 0.95\n");
  // The rung re-measures at 500 TFLOPS every time.
  const kl::bench::Remeasure same = [](const std::string&) {};

  // The planted slow reading: 500 / 142 = 3.5x, and the gate passes without a re-measurement.
  std::vector<Result> unconfirmed = results;
  const auto before = kl::bench::evaluate_gates(gated, unconfirmed, {}, same, 2);
  ASSERT_EQ(before.outcomes.size(), 1u);
  EXPECT_EQ(before.outcomes[0].status, GateStatus::pass);

  // Read again: 585, so 500 / 585 = 0.855, and the gate fails even after re-measuring the rung.
  kl::bench::add_reading(c, 585);
  const Result again = result("cublas_gemmex_fp16", 585, c);
  kl::bench::reread_against(c, results, again);
  EXPECT_DOUBLE_EQ(results[0].ceiling_value, 585);
  const auto after = kl::bench::evaluate_gates(gated, results, {}, same, 2);
  ASSERT_EQ(after.outcomes.size(), 1u);
  EXPECT_EQ(after.outcomes[0].status, GateStatus::fail);
  EXPECT_NEAR(after.outcomes[0].measured, 500.0 / 585.0, 1e-12);
}

TEST(BenchReferenceReadings, TheReferencesOwnResultBecomesItsFastestReading) {
  Ceiling c = gemmex_read_slow();
  Result own = result("cublas_gemmex_fp16", 142, c);
  own.ceiling = "fp16_tensor_peak";  // the library itself is read against the roof
  own.ceiling_value = 1070;
  std::vector<Result> results = {own, result("wgmma_tma_store", 500, c)};
  kl::bench::add_reading(c, 585);
  Result again = own;
  again.value = 585;
  again.median_ms = 0.0294;
  kl::bench::reread_against(c, results, again);
  EXPECT_DOUBLE_EQ(results[0].value, 585);
  EXPECT_DOUBLE_EQ(results[0].median_ms, 0.0294);
  EXPECT_EQ(results[0].ceiling, "fp16_tensor_peak");  // still read against the roof
  EXPECT_DOUBLE_EQ(results[1].ceiling_value, 585);

  // A slower reading never replaces a faster one.
  Result slower = own;
  slower.value = 300;
  kl::bench::reread_against(c, results, slower);
  EXPECT_DOUBLE_EQ(results[0].value, 585);
}

// The bench prints each case's ratio as it measures it, before the reference is read again: the
// results a new reading moves come back, and the log corrects each one it printed differently.
TEST(BenchReferenceReadings, EveryRatioTheNewReadingMovesIsReportedForTheLog) {
  Ceiling c = gemmex_read_slow();
  Result other = result("wgmma_tma", 400, c);
  other.ceiling = "cublas_sgemm";  // read against another ceiling: untouched
  other.ceiling_value = 50;
  std::vector<Result> results = {result("wgmma_tma_store", 500, c), other};
  kl::bench::add_reading(c, 585);
  const std::vector<kl::bench::Reread> moved =
      kl::bench::reread_against(c, results, result("cublas_gemmex_fp16", 585, c));
  ASSERT_EQ(moved.size(), 1u);
  EXPECT_EQ(moved[0].key, "matmul.wgmma_tma_store.m2048_n2048_k2048");
  EXPECT_NEAR(moved[0].was, 500.0 / 142, 1e-12);
  EXPECT_NEAR(moved[0].now, 500.0 / 585, 1e-12);
  EXPECT_EQ(kl::bench::reread_text(moved[0]),
            "matmul.wgmma_tma_store.m2048_n2048_k2048: 85.5% of cublas_gemmex_fp16_m2048_n2048_k2048 "
            "(printed above: 352%)");
  // A reading that moves nothing the log printed (the same three digits) asks for no line.
  EXPECT_EQ(kl::bench::reread_text({"k", "c", 0.95541, 0.95549}), "");
  // Read again at the same value: nothing moved.
  EXPECT_TRUE(kl::bench::reread_against(c, results, result("cublas_gemmex_fp16", 585, c)).empty());
}

TEST(BenchReferenceReadings, TheLogLineNamesEveryReading) {
  Ceiling c = gemmex_read_slow();
  kl::bench::add_reading(c, 585);
  kl::bench::add_reading(c, 580);
  EXPECT_EQ(kl::bench::readings_text(c),
            "585 TFLOPS, the fastest of 142, 585 and 580 (the slowest 75.7% below: an unsteady GPU)");
  Ceiling steady = gemmex_read_slow();
  steady.value = 580;
  steady.readings = {580};
  kl::bench::add_reading(steady, 575);
  EXPECT_EQ(kl::bench::readings_text(steady), "580 TFLOPS, the fastest of 580 and 575");
}
