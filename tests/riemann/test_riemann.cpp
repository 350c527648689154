// Riemann family on the GPU: hand-checkable sums, the seed's problem at large n, shapes past one
// grid, rejected launches, and proof that the checks bite (an unwritten result, a result off by
// a few rounding bounds).
#include "kl/riemann.hpp"

#include "kl/test_env.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace kl::riemann;

namespace {

std::vector<const Variant*> gpu_variants() {
  std::vector<const Variant*> out;
  for (const Variant& v : variants())
    if (v.info.role == kl::Role::teaching) out.push_back(&v);
  return out;
}

// Hand values, exact to the digits shown (50-digit series evaluation): the abscissae are exact in
// binary for these n, so each is the exact left sum. N=2 is 5 e^5 sin 5; N=4 is
// 2.5 (f(2.5) + f(5) + f(7.5)); N=10 has dx = 1, so it is sum_{i<10} e^i sin i.
// Allowed: the GPU rounding bound (the CPU bound is smaller), plus 1e-16 relative for the decimals.
void expect_hand_value(std::int64_t n, double hand) {
  const Oracle want = oracle(n);
  const double allowed = gpu_rounding_bound(want) + 1e-16 * std::abs(hand);
  EXPECT_NEAR(want.left_sum, hand, allowed) << "CPU left sum, n=" << n;
  for (const Variant* v : gpu_variants()) {
    const CheckedSum r = run_case(*v, {n, 32}, want);
    EXPECT_TRUE(r.check.ok()) << v->info.id() << " n=" << n << ": " << r.check.describe();
    EXPECT_NEAR(r.sum, hand, allowed) << v->info.id() << " n=" << n;
  }
}

}  // namespace

// One interval: h f(0) = 10 * e^0 * sin 0 = 0 exactly (and not the NaN poison).
TEST(RiemannSeed, OneIntervalIsExactlyZero) {
  const Oracle want = oracle(1);
  EXPECT_EQ(want.left_sum, 0.0);
  for (const Variant& v : variants()) {
    const CheckedSum r = run_case(v, {1, 64}, want);
    EXPECT_TRUE(r.check.ok()) << v.info.id() << ": " << r.check.describe();
    EXPECT_EQ(r.sum, 0.0) << v.info.id();
  }
}

TEST(RiemannSeed, TwoFourAndTenIntervalsMatchHandValues) {
  expect_hand_value(2, -711.58490471451618028);
  expect_hand_value(4, 3902.2941127645563231);
  expect_hand_value(10, 6724.6187518032631380);
}

// The seed's problem: integral_0^10 e^x sin x dx = e^10 (sin 10 - cos 10) / 2 + 1/2
// = 3249.958971970596641529... (50-digit series evaluation); allowed: about 2 ulp of 3250.
TEST(RiemannSeed, ClosedFormIntegral) {
  EXPECT_NEAR(integral(), 3249.9589719705966415, 1e-12);
  // The left sum's error shrinks like 1/n: at n = 10^6 it is about (b-a)/(2n) (f(a) - f(b)).
  const Oracle want = oracle(1000000);
  const double estimate = (b - a) / 2e6 * (0.0 - std::exp(b) * std::sin(b));
  EXPECT_NEAR(want.left_sum - want.integral, estimate, 0.01 * std::abs(estimate));
  EXPECT_LE(std::abs(want.left_sum - want.integral), discretisation_bound(want.n));
}

// Large n, the seed's 256-thread blocks: every rung within its bounds of the integral and the CPU
// left sum (10^8 intervals, 10^5 under a sanitizer).
TEST(RiemannSeed, EveryRungConvergesOnTheSeedProblem) {
  const std::int64_t n = kl::sanitizer_small_mode() ? 100000 : 100000000;
  const Oracle want = oracle(n);
  for (const Variant* v : gpu_variants()) {
    const CheckedSum r = run_case(*v, {n, 256}, want);
    EXPECT_TRUE(r.check.ok()) << v->info.id() << ": " << r.check.describe();
  }
}

// Odd sizes, warp and block edges, and n far past one wave of the grid-stride rungs.
TEST(Riemann, OddSizesAndSizesPastOneGrid) {
  std::vector<std::int64_t> sizes = {3, 31, 33, 1000, 65537};
  if (!kl::sanitizer_small_mode()) sizes.push_back(5000011);
  for (std::int64_t n : sizes) {
    const Oracle want = oracle(n);
    for (const Variant* v : gpu_variants())
      for (int block : {32, 1024}) {
        const CheckedSum r = run_case(*v, {n, block}, want);
        EXPECT_TRUE(r.check.ok()) << v->info.id() << " n=" << n << " block=" << block << ": " << r.check.describe();
      }
  }
}

TEST(Riemann, LaunchRejectsBadBlocksAndSizesNamingTheRule) {
  kl::DeviceBuffer<double> out(1);
  for (const Variant* v : gpu_variants()) {
    for (int block : {0, 16, 48, 100, 2048}) {
      try {
        v->launch({out.data(), {1000, block}});
        FAIL() << v->info.id() << " accepted block " << block;
      } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()).find(v->info.id() + ": block size must be a power of two in 32..1024"), 0u)
            << e.what();
      }
    }
  }
  for (const Variant& v : variants())
    for (std::int64_t n : {std::int64_t{0}, std::int64_t{-1}, max_n + 1}) {
      try {
        v.launch({out.data(), {n, 256}});
        FAIL() << v.info.id() << " accepted n " << n;
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("n (intervals) must be in 1..2^31-1"), std::string::npos) << e.what();
      }
    }
}

namespace {
void launch_nothing(const Args&, cudaStream_t) {}
void launch_off_by_some_bounds(const Args& args, cudaStream_t stream) {
  variant("shared_memory").raw_launch(args, stream);
  KL_CUDA_CHECK(cudaStreamSynchronize(stream));
  double sum = 0;
  KL_CUDA_CHECK(cudaMemcpy(&sum, args.out, sizeof sum, cudaMemcpyDeviceToHost));
  sum += 4 * left_sum_bound(oracle(args.shape.n));
  KL_CUDA_CHECK(cudaMemcpy(args.out, &sum, sizeof sum, cudaMemcpyHostToDevice));
}
std::string any_shape(const Shape&) { return ""; }
}  // namespace

// The checks can fail: a launcher that writes nothing leaves the NaN poison; a sum off by four
// times the rounding bound fails the comparison with the CPU left sum (though it is still well
// within the integral's discretisation bound).
TEST(Riemann, ChecksCatchAnUnwrittenResultAndASumOffByAFewBounds) {
  const Variant silent{{{"riemann", "silent", "-", "-", "test stub", kl::Role::teaching, {}}, any_shape, launch_nothing}};
  const Oracle want = oracle(1000);
  const CheckedSum unwritten = run_case(silent, {1000, 256}, want);
  EXPECT_FALSE(unwritten.check.ok());
  EXPECT_EQ(unwritten.check.guards.unwritten, 1u) << unwritten.check.describe();

  const Variant off{{{"riemann", "off", "-", "-", "test stub", kl::Role::teaching, {}}, any_shape,
                     launch_off_by_some_bounds}};
  const CheckedSum shifted = run_case(off, {1000, 256}, want);
  EXPECT_TRUE(shifted.check.guards.ok());
  ASSERT_EQ(shifted.check.mismatch_count, 1u) << shifted.check.describe();
  EXPECT_EQ(shifted.check.mismatches[0].index, 1u) << "the CPU left sum comparison fails";
}
