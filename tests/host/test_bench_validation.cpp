// The bench's validation, on the host: the rule that every timed run's output is checked.
#include "bench_context.hpp"

#include "kl/guarded_buffer.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

const kl::cli::BenchCase matmul_case{"matmul", "tiled_16", "", "", "", 0};

}  // namespace

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
