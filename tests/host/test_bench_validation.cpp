// The bench's validation, on the host: the scan for unwritten (still poisoned) elements that
// completes matmul's sampled check, and the rule that every timed run's output is checked.
#include "bench_context.hpp"
#include "sampled_product.hpp"

#include "kl/guarded_buffer.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

// What poison_words leaves in an element the kernel never wrote.
template <class T>
T poison() {
  return std::bit_cast<T>(kl::GuardPatterns<4>::poison);
}

// A written float output whose every value differs from the poison's bits.
std::vector<float> written(std::size_t n) {
  std::vector<float> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<float>(i % 1000) * 0.5f;
  return out;
}

const kl::cli::BenchCase matmul_case{"matmul", "tiled_16", "", "", "", 0};

}  // namespace

TEST(BenchUnwritten, FindsAPoisonedElementAtTheStartTheMiddleAndTheEnd) {
  constexpr std::size_t n = 1001;
  for (const std::size_t at : {std::size_t{0}, n / 2, n - 1}) {
    std::vector<float> out = written(n);
    out[at] = poison<float>();
    const kl::cli::UnwrittenScan scan = kl::cli::scan_unwritten(out);
    EXPECT_EQ(scan.count, 1u) << at;
    EXPECT_EQ(scan.first, std::vector<std::size_t>{at});
    EXPECT_NE(scan.describe().find(std::to_string(at)), std::string::npos) << scan.describe();
  }
}

TEST(BenchUnwritten, PassesAFullyWrittenOutputEvenWithOrdinaryNaNs) {
  std::vector<float> out = written(4096);
  out[7] = std::bit_cast<float>(0x7FC00000u);  // the quiet NaN arithmetic produces is not the poison
  const kl::cli::UnwrittenScan scan = kl::cli::scan_unwritten(out);
  EXPECT_EQ(scan.count, 0u);
  EXPECT_TRUE(scan.first.empty());
}

TEST(BenchUnwritten, KeepsTheFirstFewIndicesAndCountsThemAll) {
  std::vector<std::int32_t> out(100, 3);
  for (std::size_t i = 10; i < 60; i += 5) out[i] = poison<std::int32_t>();  // the int sentinel
  const kl::cli::UnwrittenScan scan = kl::cli::scan_unwritten(out, 3);
  EXPECT_EQ(scan.count, 10u);
  EXPECT_EQ(scan.first, (std::vector<std::size_t>{10, 15, 20}));
  EXPECT_EQ(scan.describe(), "unwritten (still poisoned) at 10, 15, 20, ... (10 in all)");
}

// At the bench's size (C of a 4096^3 product) an element outside the 16 sampled rows and
// columns that the kernel never wrote fails the check, which names it; the sample alone passes.
TEST(BenchUnwritten, MatmulCheckFindsWhatTheSampleCannotSee) {
  constexpr std::int64_t n = 4096;
  std::vector<float> c = written(static_cast<std::size_t>(n * n));
  const std::size_t last = static_cast<std::size_t>(n * n - 1);
  const std::vector<kl::cli::ExpectedElement> sample = {{0, c[0], 0}, {last, c[last], 0}};
  ASSERT_TRUE(kl::cli::check_product(c, sample).ok());

  const std::size_t hidden = static_cast<std::size_t>(n * n / 2 + 1);  // between sampled lines
  c[hidden] = poison<float>();
  ASSERT_TRUE(kl::cli::compare_sampled(c, sample).ok()) << "the sample alone must miss it for this test to mean much";
  const kl::cli::BenchCheck check = kl::cli::check_product(c, sample);
  EXPECT_FALSE(check.ok());
  EXPECT_EQ(check.result.guards.unwritten, 1u);
  EXPECT_NE(check.describe().find("at " + std::to_string(hidden)), std::string::npos) << check.describe();
}

TEST(BenchRepetitions, EveryTimedRunIsCheckedAfterItRan) {
  std::vector<std::string> order;
  int run = 0;
  const std::vector<double> ms = kl::cli::checked_repetitions(
      matmul_case, 4,
      [&] {
        order.push_back("run");
        return static_cast<double>(++run);
      },
      [&] {
        order.push_back("check");
        return kl::CaseResult{};
      });
  EXPECT_EQ(ms, (std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(order, (std::vector<std::string>{"run", "check", "run", "check", "run", "check", "run", "check"}));
}

TEST(BenchRepetitions, AFailingRunIsNamed) {
  int run = 0;
  int checks = 0;
  const auto check = [&]() -> kl::cli::BenchCheck {
    kl::CaseResult r;
    if (++checks == 3) r.add_mismatch({5, 1.0, 2.0, 0.0});  // only the third run's output is wrong
    return r;
  };
  try {
    kl::cli::checked_repetitions(matmul_case, 5, [&] { return static_cast<double>(++run); }, check);
    FAIL() << "a wrong third run passed";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("bench matmul.tiled_16: the output of timed run 3 of 5 failed its check"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(run, 3) << "the bench stops at the first wrong run";
}

// ---- RunValidator: a run's output byte-identical to one that passed gets its verdict; any
//      other output is checked in full.

namespace {

// The output's bytes and a memory of the accepted ones, as device_output_memory keeps them on
// the GPU.
struct FakeRuns {
  std::vector<unsigned char> device = {1, 2, 3, 4};  // the output the next validation sees
  std::vector<unsigned char> accepted;               // what the memory holds
  bool oracle_passes = true;
  int checks = 0;

  kl::cli::RunValidator validator() {
    return kl::cli::RunValidator(
        [this]() -> kl::cli::BenchCheck {
          ++checks;
          kl::CaseResult r;
          if (!oracle_passes) r.add_mismatch({0, 1.0, 2.0, 0.0});
          return r;
        },
        {[this] { return accepted == device; }, [this] { accepted = device; }});
  }
};

}  // namespace

TEST(BenchRunValidator, IdenticalOutputsPassWithoutAnotherFullCheck) {
  FakeRuns runs;
  kl::cli::RunValidator validate = runs.validator();
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(validate().ok()) << i;
  EXPECT_EQ(runs.checks, 1);
  EXPECT_EQ(validate.full_checks(), 1u);
}

TEST(BenchRunValidator, ADifferentOutputIsCheckedInFullAndFailsIfTheOracleSaysSo) {
  FakeRuns runs;
  kl::cli::RunValidator validate = runs.validator();
  ASSERT_TRUE(validate().ok());
  runs.device[2] = 9;  // one byte changed, e.g. an element left unwritten in a later run
  runs.oracle_passes = false;
  EXPECT_FALSE(validate().ok());
  EXPECT_EQ(runs.checks, 2);
  runs.device[2] = 3;  // back to the bytes that passed
  EXPECT_TRUE(validate().ok());
  EXPECT_EQ(runs.checks, 2);
}

// Float atomics may reorder a sum: another output that the oracle accepts is as good.
TEST(BenchRunValidator, ADifferentOutputTheOracleAcceptsBecomesTheReference) {
  FakeRuns runs;
  kl::cli::RunValidator validate = runs.validator();
  ASSERT_TRUE(validate().ok());
  runs.device = {4, 3, 2, 1};
  EXPECT_TRUE(validate().ok());
  EXPECT_TRUE(validate().ok());
  EXPECT_EQ(runs.checks, 2);
}

TEST(BenchRunValidator, AFailedOutputNeverBecomesTheReference) {
  FakeRuns runs;
  runs.oracle_passes = false;
  kl::cli::RunValidator validate = runs.validator();
  EXPECT_FALSE(validate().ok());
  EXPECT_FALSE(validate().ok());  // the same wrong bytes are checked again, and fail again
  EXPECT_EQ(runs.checks, 2);
}

TEST(BenchRunValidator, WithoutTheOutputEveryRunIsCheckedInFull) {
  int checks = 0;
  kl::cli::RunValidator validate([&]() -> kl::cli::BenchCheck { ++checks; return kl::CaseResult{}; }, {});
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(validate().ok());
  EXPECT_EQ(checks, 3);
}

// The memory starts out holding whatever its buffer held (zeros on the device): no output that
// passed, so an output equal to it is checked like any other.
TEST(BenchRunValidator, TheFirstOutputIsAlwaysCheckedInFull) {
  FakeRuns runs;
  runs.device = {0, 0, 0, 0};
  runs.accepted = {0, 0, 0, 0};
  runs.oracle_passes = false;
  kl::cli::RunValidator validate = runs.validator();
  EXPECT_FALSE(validate().ok());
  EXPECT_EQ(runs.checks, 1);
}
