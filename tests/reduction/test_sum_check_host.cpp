// The sum checks must be able to fail where they are used (host only, no GPU). At each size the
// unit tests, properties and bench use, the wrong sums a broken kernel produces (all zero, the
// first half only, one element dropped: the first, the last, interior ones) are fed to every
// rung's check: on the lab's int inputs and default float inputs (exact integers) every rung must
// reject them all and accept the exact sum. On rounding
// inputs the table shows what each rung's depth bound can still tell apart, and the tree rungs
// must reject zero and half sums at every size.
#include "kl/error_bounds.hpp"
#include "kl/reduction.hpp"
#include "summation_plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>

using namespace kl::reduction;

namespace {

constexpr int block = 256;          // the bench's block; every rung takes it
constexpr std::uint64_t seed = 1;   // the bench's seed

struct WrongSums {
  double zero = 0;
  double first_half = 0;
  double one_short = 0;                   // without the last element
  std::vector<double> one_dropped;        // without one element each: the first, interior ones, the last
  std::vector<std::size_t> dropped_at;    // which
};

// Elements dropped: the first, the last and `interior` uniformly drawn interior ones that are
// nonzero (a dropped zero changes no sum: past the zero-free sizes, the inputs' zeros are the
// price of exactness, see exact_integer_inputs).
template <class T>
WrongSums wrong_sums_of(const std::vector<T>& x, double exact, int interior = 64) {
  WrongSums w;
  for (std::size_t i = 0; i < x.size() / 2; ++i) w.first_half += static_cast<double>(x[i]);
  w.one_short = exact - static_cast<double>(x.back());
  std::mt19937_64 rng(x.size());
  std::uniform_int_distribution<std::size_t> at(1, x.size() - 2);
  w.dropped_at = {0, x.size() - 1};
  for (int tries = 0; static_cast<int>(w.dropped_at.size()) < interior + 2 && tries < 100 * interior; ++tries)
    if (const std::size_t i = at(rng); x[i] != 0) w.dropped_at.push_back(i);
  for (const std::size_t i : w.dropped_at) w.one_dropped.push_back(exact - static_cast<double>(x[i]));
  return w;
}

// The largest float input with no zero that every order sums exactly (exact_integer_inputs).
constexpr std::int64_t largest_zero_free_n = (std::int64_t{1} << 25) - (std::int64_t{1} << 20);

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

// The tests' and properties' sizes (up to 2^20), the bench's 2^16 and 2^28, and the largest
// zero-free float input.
std::vector<std::int64_t> sizes() {
  return {1000, 100000, std::int64_t{1} << 16, std::int64_t{1} << 20, largest_zero_free_n, std::int64_t{1} << 28};
}

}  // namespace

TEST(ReductionSumCheck, ExactIntegerInputsRejectEveryWrongSumAtEverySize) {
  std::printf("%-12s %-38s %10s %9s %9s %9s %9s %14s\n", "n", "rung", "depth", "allowed", "exact", "zero",
              "half", "drops refused");
  for (const std::int64_t n : sizes()) {
    const Shape shape{n, block, Dtype::f32};
    const Inputs in = make_inputs(shape, seed);
    const Oracle want = oracle(Dtype::f32, in);
    ASSERT_TRUE(want.exact_in_fp32) << "n=" << n << ": a mass of the terms exceeds 2^24";
    const auto zeros = static_cast<std::int64_t>(std::count(in.f.begin(), in.f.end(), 0.0f));
    EXPECT_EQ(zeros, std::max<std::int64_t>(n - largest_zero_free_n, 0)) << "n=" << n;
    const WrongSums wrong = wrong_sums_of(in.f, want.value);
    for (const Variant& v : variants()) {
      if (!applies_here(v, shape)) continue;
      // Allowed 0: a sum off by any nonzero term is refused, whichever term a kernel drops.
      EXPECT_EQ(float_sum_allowance(v, shape, want), 0.0) << v.info.id() << " n=" << n;
      const bool exact = accepted(v, shape, want.value, want);
      const bool zero = accepted(v, shape, wrong.zero, want);
      const bool half = accepted(v, shape, wrong.first_half, want);
      std::size_t refused = 0;
      for (std::size_t d = 0; d < wrong.one_dropped.size(); ++d) {
        const bool drop = accepted(v, shape, wrong.one_dropped[d], want);
        refused += !drop;
        EXPECT_FALSE(drop) << v.info.id() << " n=" << n << " accepts the sum without element " << wrong.dropped_at[d];
      }
      std::printf("%-12lld %-38s %10lld %9g %9s %9s %9s %8zu of %zu\n", static_cast<long long>(n), v.info.id().c_str(),
                  static_cast<long long>(summation_depth(v, shape)), float_sum_allowance(v, shape, want),
                  verdict(exact), verdict(zero), verdict(half), refused, wrong.one_dropped.size());
      EXPECT_TRUE(exact) << v.info.id() << " n=" << n;
      EXPECT_FALSE(zero) << v.info.id() << " n=" << n;
      EXPECT_FALSE(half) << v.info.id() << " n=" << n;
    }
  }
}

// Int inputs have no zero at any size (to the bench's 2^28) and are compared exactly: the sum
// without any one element, zero and the first half are all refused.
TEST(ReductionSumCheck, IntInputsRejectEveryWrongSumAtEverySize) {
  for (const std::int64_t n : sizes()) {
    const Shape shape{n, block, Dtype::i32};
    const Inputs in = make_inputs(shape, seed);
    ASSERT_EQ(std::count(in.i.begin(), in.i.end(), 0), 0) << "n=" << n;
    const Oracle want = oracle(Dtype::i32, in);
    const WrongSums wrong = wrong_sums_of(in.i, static_cast<double>(want.exact));
    ASSERT_EQ(wrong.one_dropped.size(), 66u);
    const Variant& v = variants().front();
    const auto refuses = [&](double sum) { return !compare_sum(v, shape, static_cast<int>(sum), want).ok(); };
    EXPECT_FALSE(refuses(static_cast<double>(want.exact))) << "n=" << n;
    EXPECT_TRUE(refuses(wrong.zero)) << "n=" << n;
    EXPECT_TRUE(refuses(wrong.first_half)) << "n=" << n;
    for (std::size_t d = 0; d < wrong.one_dropped.size(); ++d)
      EXPECT_TRUE(refuses(wrong.one_dropped[d])) << "n=" << n << " without element " << wrong.dropped_at[d];
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
    const WrongSums wrong = wrong_sums_of(in.f, want.value);
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

// The exactness rule itself: an integer input whose positive or negative mass passes 2^24 is no
// longer exact in every order, and a non-integer one never is; then the depth bound applies.
TEST(ReductionSumCheck, ExactnessNeedsIntegersAndBothMassesUpTo2To24) {
  Inputs in;
  in.f = {16777216.0f, 1.0f};  // positive mass 2^24 + 1
  EXPECT_FALSE(oracle(Dtype::f32, in).exact_in_fp32);
  in.f = {16777215.0f, 1.0f};  // 2^24
  EXPECT_TRUE(oracle(Dtype::f32, in).exact_in_fp32);
  in.f = {16777216.0f, -16777216.0f};  // both masses 2^24: every subset sum is 0 or +-2^24
  EXPECT_TRUE(oracle(Dtype::f32, in).exact_in_fp32);
  in.f = {16777216.0f, -16777216.0f, -1.0f};  // negative mass 2^24 + 1
  EXPECT_FALSE(oracle(Dtype::f32, in).exact_in_fp32);
  in.f = {0.5f, 1.0f};
  EXPECT_FALSE(oracle(Dtype::f32, in).exact_in_fp32);
}
