// The float sum check must be able to fail where it is used (host only, no GPU). At each size the
// unit tests, properties and bench use, the wrong sums a broken kernel produces (all zero, the
// first half only, one element short) are fed to every rung's check: on the lab's default float
// inputs (exact integers) every rung must reject all three and accept the exact sum. On rounding
// inputs the table shows what each rung's depth bound can still tell apart, and the tree rungs
// must reject zero and half sums at every size.
#include "kl/error_bounds.hpp"
#include "kl/reduction.hpp"
#include "summation_plan.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

using namespace kl::reduction;

namespace {

constexpr int block = 256;          // the bench's block; every rung takes it
constexpr std::uint64_t seed = 1;   // the bench's seed

struct WrongSums {
  double zero = 0;
  double first_half = 0;
  double one_short = 0;  // without the last element
};

WrongSums wrong_sums_of(const std::vector<float>& x, const Oracle& want) {
  WrongSums w;
  for (std::size_t i = 0; i < x.size() / 2; ++i) w.first_half += x[i];
  w.one_short = want.value - x.back();
  return w;
}

bool accepted(const Variant& v, const Shape& shape, double sum, const Oracle& want) {
  return compare_sum(v, shape, static_cast<float>(sum), want).ok();
}

const char* verdict(bool accepted_sum) { return accepted_sum ? "accepted" : "rejected"; }

// A rung whose grid comes from the GPU it runs on (bulk_copy_ring) has no depth on a host without
// one: the table says so and leaves it out; its plan is checked in DepthsFollowTheLaunchPlans and
// its bound on the GPU by the unit tests.
bool applies_here(const Variant& v, const Shape& shape) {
  const std::string why = v.unsupported(shape);
  if (why.empty()) return true;
  std::printf("%-12lld %-38s %s\n", static_cast<long long>(shape.n), v.info.id().c_str(), why.c_str());
  return false;
}

std::vector<std::int64_t> sizes() { return {1000, 100000, std::int64_t{1} << 20, std::int64_t{1} << 28}; }

}  // namespace

TEST(ReductionSumCheck, ExactIntegerInputsRejectEveryWrongSumAtEverySize) {
  std::printf("%-12s %-38s %10s %9s %9s %9s %9s %9s\n", "n", "rung", "depth", "allowed", "exact", "zero",
              "half", "one-short");
  for (const std::int64_t n : sizes()) {
    const Shape shape{n, block, Dtype::f32};
    const Inputs in = make_inputs(shape, seed);
    const Oracle want = oracle(Dtype::f32, in);
    ASSERT_TRUE(want.exact_in_fp32) << "n=" << n << ": sum|x| = " << want.sum_abs << " exceeds 2^24";
    const WrongSums wrong = wrong_sums_of(in.f, want);
    for (const Variant& v : variants()) {
      if (!applies_here(v, shape)) continue;
      const bool exact = accepted(v, shape, want.value, want);
      const bool zero = accepted(v, shape, wrong.zero, want);
      const bool half = accepted(v, shape, wrong.first_half, want);
      const bool one_short = accepted(v, shape, wrong.one_short, want);
      std::printf("%-12lld %-38s %10lld %9g %9s %9s %9s %9s\n", static_cast<long long>(n), v.info.id().c_str(),
                  static_cast<long long>(summation_depth(v, shape)), float_sum_allowance(v, shape, want),
                  verdict(exact), verdict(zero), verdict(half), verdict(one_short));
      EXPECT_TRUE(exact) << v.info.id() << " n=" << n;
      EXPECT_FALSE(zero) << v.info.id() << " n=" << n;
      EXPECT_FALSE(half) << v.info.id() << " n=" << n;
      EXPECT_FALSE(one_short) << v.info.id() << " n=" << n;
    }
  }
}

// Rounding inputs: the bound is gamma(depth) * sum|x|. The rungs with a block tree keep their
// depth far below 2^22 at every size, so their bound stays under a quarter of the (positive) sum
// and rejects zero and half sums; one-short is rejected only while the bound is below the last
// element (small n). naive_sum (depth n) and CUB (order unknown, depth n - 1) check nothing useful
// on rounding data at large n: that is why the lab's default float inputs are exact integers.
TEST(ReductionSumCheck, RoundingInputsDepthBoundRejectsZeroAndHalfForTreeRungs) {
  std::printf("%-12s %-38s %10s %12s %9s %9s %9s %9s\n", "n", "rung", "depth", "allowed", "correct", "zero",
              "half", "one-short");
  for (const std::int64_t n : sizes()) {
    const Shape shape{n, block, Dtype::f32};
    const Inputs in = make_inputs(shape, seed, FloatData::rounding);
    const Oracle want = oracle(Dtype::f32, in);
    ASSERT_FALSE(want.exact_in_fp32);
    const WrongSums wrong = wrong_sums_of(in.f, want);
    for (const Variant& v : variants()) {
      if (!applies_here(v, shape)) continue;
      const std::int64_t depth = summation_depth(v, shape);
      const bool correct = accepted(v, shape, want.value, want);
      const bool zero = accepted(v, shape, wrong.zero, want);
      const bool half = accepted(v, shape, wrong.first_half, want);
      const bool one_short = accepted(v, shape, wrong.one_short, want);
      std::printf("%-12lld %-38s %10lld %12g %9s %9s %9s %9s\n", static_cast<long long>(n), v.info.id().c_str(),
                  static_cast<long long>(depth), float_sum_allowance(v, shape, want), verdict(correct),
                  verdict(zero), verdict(half), verdict(one_short));
      EXPECT_TRUE(correct) << v.info.id() << " n=" << n;
      const bool tree_rung = v.info.name != "naive_sum" && v.info.role != kl::Role::reference;
      if (!tree_rung) continue;
      EXPECT_LT(depth, std::int64_t{1} << 22) << v.info.id() << " n=" << n;
      EXPECT_FALSE(zero) << v.info.id() << " n=" << n;
      EXPECT_FALSE(half) << v.info.id() << " n=" << n;
    }
  }
}

// The depth of each rung follows its launch plan: spot values derived by hand.
TEST(ReductionSumCheck, DepthsFollowTheLaunchPlans) {
  const auto depth = [](const char* name, std::int64_t n, int b) {
    return summation_depth(variant(name), {n, b, Dtype::f32});
  };
  EXPECT_EQ(depth("naive_sum", 1000, 128), 999);                  // capped at the worst case n - 1
  EXPECT_EQ(depth("block_reduction", 1 << 20, 256), 8 + 4096);    // tree 8, 2^20/256 atomics
  EXPECT_EQ(depth("complete_unrolling", 1 << 20, 256), 1 + 8 + 2048);
  // 2^28 over 1024 blocks of 256 threads, two loads per step: 512 steps, 1024 adds per thread.
  EXPECT_EQ(depth("grid_stride", std::int64_t{1} << 28, 256), 1024 + 8 + 1024);
  EXPECT_EQ(depth("warp_shuffle", std::int64_t{1} << 28, 256), 1024 + 10 + 1024);
  EXPECT_EQ(depth("cub_sum", 5000, 256), 4999);                   // order unknown: worst case
  EXPECT_EQ(depth("grid_stride", 0, 256), 0);
  // Rung 10 on the H100 at blocks of 256 (132 SMs: 2 ring blocks or 8 direct ones each). 2^28:
  // 32768 chunks of 8192 over 264 blocks, 125 a block at most, 32 elements of each a thread, at
  // most one element of the rest, two shuffles, 264 atomics. 2^16: 8 chunks, no ring; 16 direct
  // blocks of 16 elements a thread, head and tail, two shuffles, 16 atomics. 1000: one block.
  EXPECT_TRUE(plan::bulk_ring_streams(std::int64_t{1} << 28, 264));
  EXPECT_EQ(plan::bulk_copy_ring(std::int64_t{1} << 28, 256, 264, 1056).depth(), 125 * 32 + 1 + 10 + 264);
  EXPECT_FALSE(plan::bulk_ring_streams(264 * 8192 + 8191, 264));  // a chunk for every block is not enough
  EXPECT_EQ(plan::bulk_copy_ring(std::int64_t{1} << 16, 256, 264, 1056).depth(), 16 + 2 + 10 + 16);
  EXPECT_EQ(plan::bulk_copy_ring(1000, 256, 264, 1056).depth(), 4 + 2 + 10);  // one block: a store, no add
}

// The exactness rule itself: an integer input whose sum|x| passes 2^24 is no longer exact, and a
// non-integer one never is; then the depth bound applies.
TEST(ReductionSumCheck, ExactnessNeedsIntegersAndSumAbsUpTo2To24) {
  Inputs in;
  in.f = {16777216.0f, 1.0f};  // 2^24 + 1
  EXPECT_FALSE(oracle(Dtype::f32, in).exact_in_fp32);
  in.f = {16777215.0f, 1.0f};  // 2^24
  EXPECT_TRUE(oracle(Dtype::f32, in).exact_in_fp32);
  in.f = {0.5f, 1.0f};
  EXPECT_FALSE(oracle(Dtype::f32, in).exact_in_fp32);
}
