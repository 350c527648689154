// Host logic: launch geometry, error bounds, the CUDA check macro, oracles.
#include "kl/check.hpp"
#include "kl/dispatch.hpp"
#include "kl/elementwise.hpp"
#include "kl/error_bounds.hpp"
#include "kl/geometry.hpp"
#include "kl/matmul.hpp"
#include "kl/matmul_oracle.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

TEST(Geometry, SeedAddLaunchIsEightBlocksOf128) {
  // Seed 003: "we'll need 8 blocks to cover all 1000 threads (128 * 8 = 1024)".
  EXPECT_EQ(kl::grid_1d(1000, 128), 8);
  // Seed 002: exp_kernel as 16 blocks of 256 threads for 4096 elements.
  EXPECT_EQ(kl::grid_1d(4096, 256), 16);
  EXPECT_EQ(kl::grid_1d(0, 256), 0);
}

TEST(Geometry, SeedCoordsGridIsTwoByThree) {
  EXPECT_EQ(kl::grid_2d(4, 6, {2, 2}), (kl::Dim2{2, 3}));
  // Seed 000/003 naive matmul: 4096x4096 with 16x16 blocks is a 256x256 grid.
  EXPECT_EQ(kl::grid_2d(4096, 4096, {16, 16}), (kl::Dim2{256, 256}));
}

TEST(Geometry, RejectsIllegalBlocksNamingTheRule) {
  for (int bad : {0, -5, 1025}) {
    try {
      kl::grid_1d(100, bad);
      FAIL() << "block " << bad << " accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("1..1024"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(kl::grid_2d(10, 10, {64, 32}), std::invalid_argument);
  EXPECT_THROW(kl::grid_2d(10, 10, {0, 4}), std::invalid_argument);
  EXPECT_THROW(kl::grid_2d(0, 10, {4, 4}), std::invalid_argument);
  EXPECT_THROW(kl::grid_2d(10, 70000 * 2, {1, 1}), std::invalid_argument);  // y grid > 65535
  EXPECT_THROW(kl::grid_1d(-1, 32), std::invalid_argument);
}

TEST(Bounds, GammaMatchesItsDefinition) {
  EXPECT_EQ(kl::bounds::gamma(0), 0.0);
  const double u = std::ldexp(1.0, -24);
  EXPECT_DOUBLE_EQ(kl::bounds::gamma(4096), 4096 * u / (1 - 4096 * u));
  EXPECT_TRUE(std::isinf(kl::bounds::gamma(std::int64_t{1} << 24)));
}

TEST(Bounds, FloatSumBoundIsGammaOfTheDepthTimesSumAbs) {
  EXPECT_EQ(kl::bounds::float_sum_bound(0, 5.0), 0.0);
  EXPECT_DOUBLE_EQ(kl::bounds::float_sum_bound(1000, 2.0), kl::bounds::gamma(1000) * 2.0);
  EXPECT_DOUBLE_EQ(kl::bounds::float_sum_worst_case_bound(1001, 2.0), kl::bounds::float_sum_bound(1000, 2.0));
  EXPECT_EQ(kl::bounds::float_sum_worst_case_bound(1, 5.0), 0.0);
}

TEST(Bounds, UlpDistance) {
  EXPECT_EQ(kl::bounds::ulp_distance(1.0f, 1.0f), 0);
  EXPECT_EQ(kl::bounds::ulp_distance(0.0f, -0.0f), 0);
  EXPECT_EQ(kl::bounds::ulp_distance(1.0f, std::nextafter(1.0f, 2.0f)), 1);
  EXPECT_EQ(kl::bounds::ulp_distance(-1.0f, std::nextafter(-1.0f, -2.0f)), 1);
  // Across zero: the smallest subnormals on either side are 2 ulp apart.
  const float tiny = std::numeric_limits<float>::denorm_min();
  EXPECT_EQ(kl::bounds::ulp_distance(tiny, -tiny), 2);
  EXPECT_EQ(kl::bounds::ulp_distance(INFINITY, INFINITY), 0);
  EXPECT_GT(kl::bounds::ulp_distance(NAN, 1.0f), 1000000);
}

TEST(CudaCheck, ThrowsWithExpressionFileLineAndCudaMessage) {
  try {
    KL_CUDA_CHECK(cudaSetDevice(-1));
    FAIL() << "cudaSetDevice(-1) succeeded";
  } catch (const kl::CudaError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("cudaSetDevice(-1)"), std::string::npos) << what;
    EXPECT_NE(what.find("test_geometry_bounds.cpp:"), std::string::npos) << what;
    EXPECT_NE(what.find(cudaGetErrorName(e.status())), std::string::npos) << what;
  }
}

TEST(Oracles, ElementwiseAddAndExp) {
  kl::elementwise::Inputs in{{1.5f, -2.0f, 1e8f}, {2.25f, 2.0f, 1.0f}};
  const auto add = kl::elementwise::oracle(kl::elementwise::Op::add, in);
  EXPECT_EQ(add, (std::vector<double>{3.75, 0.0, 1e8}));  // 1e8f + 1 rounds back to 1e8f
  const auto ex = kl::elementwise::oracle(kl::elementwise::Op::exp, in);
  EXPECT_DOUBLE_EQ(ex[0], std::exp(1.5));
}

TEST(Oracles, InputsAreNeverAllZeroAndDependOnTheSeed) {
  for (auto op : {kl::elementwise::Op::add, kl::elementwise::Op::exp}) {
    const auto a = kl::elementwise::make_inputs(op, {1000, 128}, 1);
    const auto b = kl::elementwise::make_inputs(op, {1000, 128}, 2);
    EXPECT_NE(a.a, b.a);
    EXPECT_TRUE(std::any_of(a.a.begin(), a.a.end(), [](float x) { return x != 0; }));
  }
}

TEST(Dispatch, FormatsBothSeedOrders) {
  const std::vector<int> coords = {0, 0, 1, 0, 0, 1, 1, 1};  // 2x2 grid, (col,row) per cell
  EXPECT_EQ(kl::dispatch::format_coords(coords, 2, 2, kl::dispatch::Order::col_row), "(0,0) (1,0)\n(0,1) (1,1)\n");
  EXPECT_EQ(kl::dispatch::format_coords(coords, 2, 2, kl::dispatch::Order::row_col), "(0,0) (0,1)\n(1,0) (1,1)\n");
}

// The oracle computed once for many variants is the one run_case computes for itself: every
// element of C in row-major order, on shapes the host oracle takes (larger ones take the device
// oracle, compared with this one in kl.matmul.unit), the same doubles as oracle_element's
// element-at-a-time sums (every element of the smaller shapes, every 97th of the large one); and a
// list of the wrong length is refused before anything runs.
TEST(Oracles, MatmulExpectedElementsCoverEveryElementInOrder) {
  for (const kl::matmul::Shape shape : {kl::matmul::Shape{7, 5, 3}, kl::matmul::Shape{33, 70, 129, true},
                                        kl::matmul::Shape{3, 4, 0, true}, kl::matmul::Shape{1, 9, 5, true},
                                        kl::matmul::Shape{600, 520, 430, true}}) {
    ASSERT_TRUE(kl::matmul::host_oracle_takes(shape));
    const kl::matmul::Inputs in = kl::matmul::make_inputs(shape, kl::matmul::Data::random, 3);
    const std::size_t stride = shape.m * shape.n * shape.k > 1'000'000 ? 97 : 1;
    for (const auto precision : {kl::matmul::InputPrecision::fp32, kl::matmul::InputPrecision::fp16}) {
      const std::vector<kl::matmul::Expected> expected = kl::matmul::expected_elements(in, shape, precision);
      ASSERT_EQ(expected.size(), static_cast<std::size_t>(shape.m * shape.n));
      for (std::size_t e = 0; e < expected.size(); e += stride) {
        const auto i = static_cast<std::int64_t>(e) / shape.n, j = static_cast<std::int64_t>(e) % shape.n;
        const kl::matmul::Expected want = kl::matmul::oracle_element(in, shape, precision, i, j);
        EXPECT_EQ(expected[e].value, want.value);
        EXPECT_EQ(expected[e].bound, want.bound);
      }
      if (precision == kl::matmul::InputPrecision::fp32) {  // the values alone, as the unit tests take them
        const std::vector<double> values = kl::matmul::oracle(in, shape);
        ASSERT_EQ(values.size(), expected.size());
        for (std::size_t e = 0; e < values.size(); e += stride) EXPECT_EQ(values[e], expected[e].value);
      }
    }
  }
  EXPECT_FALSE(kl::matmul::host_oracle_takes({600, 520, 513}));
  const kl::matmul::Shape shape{4, 4, 4};
  const kl::matmul::Inputs in = kl::matmul::make_inputs(shape, kl::matmul::Data::random, 3);
  EXPECT_THROW(kl::matmul::run_case(kl::matmul::variants().front(), shape, in, std::vector<kl::matmul::Expected>(15)),
               std::invalid_argument);
}

// Which engine the matmul device oracle takes by size (kl/matmul_oracle.hpp): its own kernel up to
// 2^34 multiply-adds with k up to 2^16 (the bench's K-heavy and 4096 x 4096 x 1024 sit exactly on
// the first), cuBLAS DGEMM past either (a skinny shape's long k would be one thread's chain).
TEST(Oracles, TheMatmulDeviceOracleTakesItsKernelWithinBothLimits) {
  using kl::matmul::in_k_order_takes;
  EXPECT_TRUE(in_k_order_takes({1024, 1024, 16384}));
  EXPECT_TRUE(in_k_order_takes({4096, 4096, 1024}));
  EXPECT_FALSE(in_k_order_takes({4096, 4096, 1025}));
  EXPECT_FALSE(in_k_order_takes({4096, 4096, 4096}));
  EXPECT_TRUE(in_k_order_takes({1, 1, 65536}));
  EXPECT_FALSE(in_k_order_takes({1, 1, 65537}));
  EXPECT_FALSE(in_k_order_takes({1, 1, std::int64_t{1} << 28}));
}

// The scalar head before 16-byte vectors: 0..3 four-byte elements, never more than n.
TEST(Geometry, HeadTo16BytesCountsTheElementsBeforeTheBoundary) {
  alignas(16) float data[8] = {};
  EXPECT_EQ(kl::head_to_16_bytes(data, 100), 0);
  EXPECT_EQ(kl::head_to_16_bytes(data + 1, 100), 3);
  EXPECT_EQ(kl::head_to_16_bytes(data + 2, 100), 2);
  EXPECT_EQ(kl::head_to_16_bytes(data + 3, 100), 1);
  EXPECT_EQ(kl::head_to_16_bytes(data + 4, 100), 0);
  EXPECT_EQ(kl::head_to_16_bytes(data + 1, 2), 2);  // capped at n
  EXPECT_EQ(kl::head_to_16_bytes(data + 1, 0), 0);
}
