// Matmul family on the GPU: hand-checkable products, seed 003's 4x4 walk-through with 2x2
// tiles, cuBLAS's row-major mapping on non-square shapes, bias, shape rules, the tensor-core
// rungs at their tile edges, and the planted missing barrier.
#include "kl/cuda_check.hpp"
#include "kl/device_buffer.hpp"
#include "kl/device_facts.hpp"
#include "kl/error_bounds.hpp"
#include "kl/guarded_buffer.hpp"
#include "kl/matmul.hpp"
#include "kl/matmul_oracle.hpp"
#include "kl/matmul_stream_k.hpp"
#include "kl/test_env.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include <cuda_runtime.h>

#include <cmath>
#include <cstring>
#include <iostream>

using namespace kl::matmul;
using kl::CaseResult;

namespace {

// Runs `name` on the given inputs and returns C; the bound check and guards must pass.
std::vector<float> product(const std::string& name, const Shape& shape, const Inputs& in) {
  std::vector<float> c;
  const CaseResult r = run_case(variant(name), shape, in, &c);
  EXPECT_TRUE(r.ok()) << name << ": " << r.describe();
  return c;
}

// C must equal the double oracle exactly (inputs whose products and sums are exact in FP32).
void expect_bit_exact(const std::string& name, const Shape& shape, const Inputs& in) {
  const std::vector<float> c = product(name, shape, in);
  const std::vector<double> want = oracle(in, shape);
  ASSERT_EQ(c.size(), want.size());
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < c.size(); ++i)
    if (static_cast<double>(c[i]) != want[i] && wrong++ < 4)
      ADD_FAILURE() << name << " C[" << i << "] = " << c[i] << ", want " << want[i];
  EXPECT_EQ(wrong, 0u) << name << " m=" << shape.m << " n=" << shape.n << " k=" << shape.k;
}

// The same against the oracle computed once by the caller (expected_elements, the GPU's FP64
// oracle on large shapes): the check passes and every element equals its value exactly.
void expect_exact_against(const Variant& v, const Shape& shape, const Inputs& in, const std::vector<Expected>& want,
                          const std::string& where) {
  std::vector<float> got;
  const CaseResult r = run_case(v, shape, in, want, &got);
  EXPECT_TRUE(r.ok()) << where << ": " << r.describe();
  std::size_t inexact = 0;
  for (std::size_t e = 0; e < want.size(); ++e) inexact += static_cast<double>(got[e]) != want[e].value;
  EXPECT_EQ(inexact, 0u) << where << ": small integers must be bit-exact";
}

// Two runs on the same random inputs: both within the bound, and the same bits (kernels that add
// partial sums from several blocks must add them in one order, whatever the timing).
void expect_within_bound_twice_in_the_same_bits(const Variant& v, const Shape& shape, const Inputs& random,
                                                const std::vector<Expected>& want, const std::string& where) {
  std::vector<float> first, second;
  const CaseResult r1 = run_case(v, shape, random, want, &first);
  const CaseResult r2 = run_case(v, shape, random, want, &second);
  EXPECT_TRUE(r1.ok()) << where << ": " << r1.describe();
  EXPECT_TRUE(r2.ok()) << where << ": " << r2.describe();
  ASSERT_EQ(first.size(), second.size());
  std::size_t differ = 0;
  for (std::size_t e = 0; e < first.size(); ++e) differ += std::memcmp(&first[e], &second[e], sizeof(float)) != 0;
  EXPECT_EQ(differ, 0u) << where << ": two runs on the same inputs gave different bits";
}

// What every rung that adds partial sums across blocks must show: small integers (data seed
// `seed`) bit-exact against the oracle, random data (seed + 1) within the bound twice, in the same
// bits.
void expect_exact_and_reproducible(const Variant& v, const Shape& shape, std::uint64_t seed, const std::string& where) {
  const Inputs exact = make_inputs(shape, Data::small_integers, seed), random = make_inputs(shape, Data::random, seed + 1);
  expect_exact_against(v, shape, exact, expected_elements(exact, shape, v.precision), where);
  expect_within_bound_twice_in_the_same_bits(v, shape, random, expected_elements(random, shape, v.precision), where);
}

std::string shape_text(const Shape& shape) {
  return "m=" + std::to_string(shape.m) + " n=" + std::to_string(shape.n) + " k=" + std::to_string(shape.k);
}

}  // namespace

// [[1 2 3] [4 5 6]] x [[7 8] [9 10] [11 12]] = [[58 64] [139 154]]: every variant that takes
// a 2x3 by 3x2 product.
TEST(MatmulSeed, TwoByThreeTimesThreeByTwo) {
  const Shape shape{2, 2, 3};
  const Inputs in{{1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11, 12}, {}};
  int ran = 0;
  for (const Variant& v : variants()) {
    if (v.info.role == kl::Role::planted || !v.supports(shape)) continue;
    ++ran;
    EXPECT_EQ(product(v.info.name, shape, in), (std::vector<float>{58, 64, 139, 154})) << v.info.id();
  }
  EXPECT_GE(ran, 3) << "cublas_sgemm, tiled_bounds and cublas_gemmex_fp16 take any shape";
}

// Seed 003 walks through the block with blockIdx = (0,1) of a 4x4 product with 2x2 tiles: it
// computes C20, C21, C30, C31 from rows 2,3 of A and columns 0,1 of B, first the tile
// tile_idx = 0 (A's columns 0,1 with B's rows 0,1), then tile_idx = 2.
TEST(MatmulSeed, WalkThrough4x4With2x2Tiles) {
  const Shape shape{4, 4, 4};
  // a_ij = 10*i + j + 1 and b_ij = i - j, small integers so every sum is exact.
  Inputs in{std::vector<float>(16), std::vector<float>(16), {}};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      in.a[i * 4 + j] = static_cast<float>(10 * i + j + 1);
      in.b[i * 4 + j] = static_cast<float>(i - j);
    }
  // C20 = 21*0 + 22*1 + 23*2 + 24*3 = 140, C21 = 21*-1 + 22*0 + 23*1 + 24*2 = 50,
  // C30 = 31*0 + 32*1 + 33*2 + 34*3 = 200, C31 = 31*-1 + 32*0 + 33*1 + 34*2 = 70.
  const std::vector<float> c = product("tiled_2", shape, in);
  EXPECT_EQ(c[2 * 4 + 0], 140.0f);
  EXPECT_EQ(c[2 * 4 + 1], 50.0f);
  EXPECT_EQ(c[3 * 4 + 0], 200.0f);
  EXPECT_EQ(c[3 * 4 + 1], 70.0f);
  expect_bit_exact("tiled_2", shape, in);

  // The first tile alone (tile_idx = 0): zero A's columns 2,3 and the result is the partial
  // sum after the first barrier pair: C20 = 21*0 + 22*1 = 22, C21 = -21, C30 = 32, C31 = -31.
  Inputs first = in;
  for (int i = 0; i < 4; ++i) first.a[i * 4 + 2] = first.a[i * 4 + 3] = 0.0f;
  const std::vector<float> partial = product("tiled_2", shape, first);
  EXPECT_EQ(partial[2 * 4 + 0], 22.0f);
  EXPECT_EQ(partial[2 * 4 + 1], -21.0f);
  EXPECT_EQ(partial[3 * 4 + 0], 32.0f);
  EXPECT_EQ(partial[3 * 4 + 1], -31.0f);
}

// cuBLAS is column-major; a swapped m/n or a wrong leading dimension only shows on shapes
// where m, n and k all differ.
TEST(Matmul, CublasMapsRowMajorOnNonSquareShapes) {
  for (const Shape& shape : {Shape{1, 7, 3}, Shape{5, 2, 9}, Shape{33, 17, 65}, Shape{130, 3, 1}, Shape{2, 129, 31}})
    for (const char* name : {"cublas_sgemm", "cublas_gemmex_fp16", "tiled_bounds"})
      expect_bit_exact(name, shape, make_inputs(shape, Data::small_integers, 5));
}

// Under a sanitizer the 96^3 cube is left out: 64^3 already spans several 32-wide tiles in each
// side (the tile-128 rungs pad both to one tile), and 96^3 was half of the initcheck run's time.
TEST(Matmul, EveryCleanVariantIsBitExactOnSmallIntegers) {
  const std::vector<Shape> shapes = kl::sanitizer_small_mode()
                                        ? std::vector<Shape>{{32, 32, 32}, {64, 64, 64}, {48, 16, 7}}
                                        : std::vector<Shape>{{32, 32, 32}, {64, 64, 64}, {96, 96, 96}, {48, 16, 7}};
  for (const Shape& shape : shapes)
    for (const Variant& v : variants())
      if (v.info.role != kl::Role::planted && v.supports(shape))
        expect_bit_exact(v.info.name, shape, make_inputs(shape, Data::small_integers, 9));
}

TEST(Matmul, EveryCleanVariantMeetsTheBoundOnRandomData) {
  for (const Shape& shape : {Shape{64, 64, 64}, Shape{128, 128, 128}, Shape{17, 33, 65}})
    for (const Variant& v : variants()) {
      if (v.info.role == kl::Role::planted || !v.supports(shape)) continue;
      const CaseResult r = run_case(v, shape, make_inputs(shape, Data::random, 3));
      EXPECT_TRUE(r.ok()) << v.info.id() << ": " << r.describe();
      EXPECT_EQ(r.checked, static_cast<std::size_t>(shape.m * shape.n));
    }
}

// A, B and C each a float past a 16-byte boundary (a sub-matrix, a pointer past a header): every
// clean variant takes them and is bit-exact on small integers. The SGEMM rungs read and write 16
// bytes at a time; on whole tiles they used to take the caller's pointers as they were, and a
// misaligned one faulted (misaligned address) instead of computing.
TEST(Matmul, EveryCleanVariantTakesMatricesAtAnyFloatOffset) {
  const Shape shape{128, 128, 128};  // whole tiles of every rung, square for the square-only ones
  const Inputs in = make_inputs(shape, Data::small_integers, 5);
  const std::vector<double> want = oracle(in, shape);
  const auto offset_copy = [](const std::vector<float>& host) {
    kl::DeviceBuffer<float> buffer(host.size() + 1);
    KL_CUDA_CHECK(cudaMemcpy(buffer.data() + 1, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
    return buffer;
  };
  const kl::DeviceBuffer<float> a = offset_copy(in.a), b = offset_copy(in.b);
  for (const Variant& v : variants()) {
    if (v.info.role == kl::Role::planted || !runs_here(v) || !v.supports(shape)) continue;
    kl::DeviceBuffer<float> c(want.size() + 1);
    KL_CUDA_CHECK(cudaMemset(c.data(), 0xFF, c.bytes()));  // NaN: an element never written fails
    v.launch({a.data() + 1, b.data() + 1, nullptr, c.data() + 1, shape});
    KL_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> got(want.size());
    KL_CUDA_CHECK(cudaMemcpy(got.data(), c.data() + 1, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < got.size(); ++i) wrong += static_cast<double>(got[i]) != want[i];
    EXPECT_EQ(wrong, 0u) << v.info.id() << ": A, B and C a float past a 16-byte boundary";
  }
}

// Seed 001's accumulator: C[m][n] = bias[n] + sum_k A[m][k] B[k][n].
TEST(Matmul, TiledBoundsAddsTheBiasPerColumn) {
  const Shape shape{2, 3, 2, true};
  const Inputs in{{1, 2, 3, 4}, {1, 0, 2, 0, 1, 3}, {100, 200, 300}};
  // A B = [[1 2 8] [3 4 18]].
  EXPECT_EQ(product("tiled_bounds", shape, in), (std::vector<float>{101, 202, 308, 103, 204, 318}));
  expect_bit_exact("tiled_bounds", {37, 19, 23, true}, make_inputs({37, 19, 23, true}, Data::small_integers, 4));
}

TEST(Matmul, UnsupportedShapesAreRejectedNamingVariantAndRule) {
  const struct {
    const char* name;
    Shape shape;
    const char* rule;
  } cases[] = {
      {"tiled_16", {17, 17, 17}, "matmul.tiled_16: n must be a multiple of TILE=16"},
      {"tiled_32", {32, 64, 32}, "matmul.tiled_32: square only"},
      {"naive", {15, 16, 16}, "matmul.naive: m and n must be multiples of 16"},
      {"cublas_sgemm", {4, 4, 4, true}, "matmul.cublas_sgemm: bias is not supported"},
      {"tiled_bounds", {0, 4, 4}, "matmul.tiled_bounds: m, n and k must be >= 1"},
  };
  kl::DeviceBuffer<float> buf(16);
  for (const auto& c : cases) {
    try {
      variant(c.name).launch({buf.data(), buf.data(), buf.data(), buf.data(), c.shape});
      ADD_FAILURE() << c.name << " accepted an unsupported shape";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()).rfind(c.rule, 0), 0u) << e.what();
    }
  }
}

TEST(Matmul, Fp16RoundingMatchesBinary16) {
  EXPECT_EQ(round_to_fp16(1.0f), 1.0f);
  EXPECT_EQ(round_to_fp16(1.0f + 0x1p-11f), 1.0f);                 // tie: to even
  EXPECT_EQ(round_to_fp16(1.0f + 3 * 0x1p-11f), 1.0f + 0x1p-9f);  // tie: to even (up)
  EXPECT_EQ(round_to_fp16(0x1p-25f), 0.0f);                        // half the smallest subnormal: to even
  EXPECT_EQ(round_to_fp16(0x1.8p-24f), 0x1p-23f);
  EXPECT_EQ(round_to_fp16(65504.0f), 65504.0f);
  EXPECT_TRUE(std::isinf(round_to_fp16(65520.0f)));
}

// The tensor-core rungs (FP16 inputs, FP32 accumulation) at and around every tile edge they
// have: 16 (WMMA fragments, mma.sync's k), 32 (rung 30's block), 64 (the k-tiles of 32 and 33),
// 128 and 256 (block tiles). Small integers: bit-exact. Random data: within gamma(2k) of the
// double product of the FP16-rounded inputs (element_bound), every element written.
std::vector<std::string> tensor_core_rungs() {
  std::vector<std::string> names;
  for (const Variant& v : variants())
    if (v.precision == InputPrecision::fp16 && v.info.name != "cublas_gemmex_fp16" && !v.info.planted())
      names.push_back(v.info.name);
  return names;
}

TEST(MatmulTensorCores, TheLadderHasEightRungs) {
  EXPECT_EQ(tensor_core_rungs(),
            (std::vector<std::string>{"wmma_global", "wmma_shared", "mma_sync_pipeline", "wgmma_tma", "wgmma_persistent",
                                      "wgmma_tma_store", "wgmma_stream_k", "wgmma_multicast"}));
}

// The rungs built for sm_90a (they apply on compute capability 9.0 only).
const std::vector<std::string> hopper_rungs = {"wgmma_tma", "wgmma_persistent", "wgmma_tma_store", "wgmma_stream_k",
                                               "wgmma_multicast"};
bool hopper_rung(const std::string& name) {
  return std::find(hopper_rungs.begin(), hopper_rungs.end(), name) != hopper_rungs.end();
}

TEST(MatmulTensorCores, EveryRungIsExactAndWithinTheBoundAtTileEdges) {
  // Under a sanitizer (minutes per run otherwise) every rung still runs a whole tile, a padded
  // shape across tile edges in all three sides, and a single element.
  const std::vector<Shape> shapes =
      kl::sanitizer_small_mode()
          ? std::vector<Shape>{{1, 1, 1}, {128, 256, 64}, {129, 257, 65}}
          : std::vector<Shape>{{1, 1, 1},     {16, 16, 16},   {15, 17, 33},   {64, 64, 64},
                               {63, 65, 129}, {128, 256, 64}, {129, 257, 65}, {127, 255, 63},
                               {256, 128, 96}, {256, 512, 64}, {33, 300, 257}};
  int ran = 0;
  for (const Shape& shape : shapes) {
    // The double oracle once per shape and data for every rung: it, not the GPU, is the cost.
    const Inputs exact = make_inputs(shape, Data::small_integers, 11), random = make_inputs(shape, Data::random, 12);
    const std::vector<Expected> exact_want = expected_elements(exact, shape, InputPrecision::fp16);
    const std::vector<Expected> random_want = expected_elements(random, shape, InputPrecision::fp16);
    for (const std::string& name : tensor_core_rungs()) {
      const Variant& v = variant(name);
      if (!v.supports(shape)) continue;  // the sm_90a rungs elsewhere: see the next test
      ++ran;
      const std::string where = name + " " + shape_text(shape);
      expect_exact_against(v, shape, exact, exact_want, where);
      const CaseResult rr = run_case(v, shape, random, random_want);
      EXPECT_TRUE(rr.ok()) << where << ": " << rr.describe();
      EXPECT_EQ(rr.checked, static_cast<std::size_t>(shape.m * shape.n));
    }
  }
  // Every rung that applies on this GPU but the sm_90a ones takes every shape (mma_sync_pipeline
  // does not apply below compute capability 8.0, nor the sm_90a rungs off 9.0: their rules say so).
  int taking_every_shape = 0;
  for (const std::string& name : tensor_core_rungs())
    taking_every_shape += !hopper_rung(name) && runs_here(variant(name));
  EXPECT_GE(taking_every_shape, 2) << "wmma_global and wmma_shared apply from compute capability 7.0";
  EXPECT_GE(ran, taking_every_shape * static_cast<int>(shapes.size()));
}

// The sm_90a rungs run wherever the GPU is compute capability 9.0 (so they cannot silently skip
// on an H100 or H200), and elsewhere say they do not apply.
TEST(MatmulTensorCores, TheHopperRungsApplyExactlyOnComputeCapability90) {
  const kl::DeviceFacts gpu = kl::device_facts();
  for (const std::string& name : hopper_rungs) {
    const std::string rule = variant(name).unsupported({128, 256, 64});
    if (gpu.cc_major == 9 && gpu.cc_minor == 0)
      EXPECT_EQ(rule, "") << name;
    else
      EXPECT_NE(rule.find("does not apply: built for sm_90a"), std::string::npos) << name << ": " << rule;
  }
}

// A pipeline bug in the producer/consumer ring would show as a wrong element in some k-tile:
// k of 64 (one k-tile), 128 (two), 256 (all four ring slots), 320 (the ring wraps) and 1024
// (four laps). Under a sanitizer (about a second a launch of these rungs under initcheck) only
// the wrap: one k-tile is EveryRungIsExactAndWithinTheBoundAtTileEdges's 128 x 256 x 64 already.
TEST(MatmulTensorCores, TheHopperRingsAreExactWhereverTheyWrap) {
  for (const std::string& name : hopper_rungs) {
    const Variant& v = variant(name);
    if (!v.supports({128, 256, 64})) GTEST_SKIP() << v.unsupported({128, 256, 64});
    const std::vector<std::int64_t> depths = kl::sanitizer_small_mode() ? std::vector<std::int64_t>{320}
                                                                        : std::vector<std::int64_t>{64, 128, 256, 320, 1024};
    for (const std::int64_t k : depths) {
      const Shape shape{128, 256, k};  // one block tile: the whole ring on one SM
      expect_bit_exact(name, shape, make_inputs(shape, Data::small_integers, 13));
    }
  }
}

// The persistent rungs' ring runs on across the tiles of a block: with more tiles than the grid
// has blocks some blocks take two or more, and with k = 320 (five k-steps, four slots) the next
// tile starts mid-lap, its barriers a phase along; rung 35's staging of C is reused from one tile
// to the next, and rung 36 takes them whole as well (five k-steps: too few to deal out). The
// grid the GPU holds (the H100's 132 SMs: 144 tiles), and a grid capped at two blocks
// (cap_persistent_grid) walking six tiles, three a block, where rung 37 runs one cluster over
// four pairs (C's three tile rows make two pair rows, the last pair's lower tiles below C); under a
// sanitizer the capped grid only. One oracle a shape for the rungs (it, not
// the GPU, is the cost).
TEST(MatmulTensorCores, ThePersistentRingsRunOnAcrossTiles) {
  if (!variant("wgmma_persistent").supports({128, 256, 64}))
    GTEST_SKIP() << variant("wgmma_persistent").unsupported({128, 256, 64});
  const auto expect_exact_on = [](const Shape& shape, const std::vector<const char*>& names, const std::string& grid) {
    const Inputs in = make_inputs(shape, Data::small_integers, 17);
    const std::vector<Expected> want = expected_elements(in, shape, InputPrecision::fp16);
    for (const char* name : names) expect_exact_against(variant(name), shape, in, want, std::string(name) + " " + shape_text(shape) + ", " + grid);
  };
  {
    const kl::matmul::PersistentGridCap two_blocks(2);
    const Shape six_tiles{3 * 128 - 1, 2 * 256 - 3, 320};
    ASSERT_TRUE(kl::matmul::wgmma_multicast_runs_clusters(six_tiles)) << "one cluster, four pairs: the clusters run";
    expect_exact_on(six_tiles, {"wgmma_persistent", "wgmma_tma_store", "wgmma_stream_k", "wgmma_multicast"},
                    "grid capped at two blocks");
  }
  if (kl::sanitizer_small_mode()) return;  // more tiles than SMs of small-integer oracle: too slow under a sanitizer
  const kl::DeviceFacts gpu = kl::device_facts();
  const int tiles_m = 12, tiles_n = (gpu.sm_count + tiles_m) / tiles_m;  // more tiles than SMs
  ASSERT_GT(tiles_m * tiles_n, gpu.sm_count);
  expect_exact_on({128 * tiles_m, 256 * tiles_n, 320}, {"wgmma_persistent", "wgmma_tma_store", "wgmma_stream_k"}, "whole grid");
}

// cap_persistent_grid reaches the plans: rung 36 deals k-steps out only where C's tiles are fewer
// than its blocks, and rung 37 runs its clusters only where each walks three pairs or more; a
// guard restores the cap before it; a negative cap is refused. On 8 blocks rung 36 shares 4 tiles
// in halves (20 k-steps), small enough for the sanitizers: exact, and the same bits twice.
TEST(MatmulTensorCores, AGridCapReachesThePlansOfRungs36And37) {
  if (!variant("wgmma_stream_k").supports({128, 256, 64})) GTEST_SKIP() << variant("wgmma_stream_k").unsupported({128, 256, 64});
  const Shape four_tiles{4 * 128, 256, 8192}, three_pairs{6 * 128, 256, 64};
  EXPECT_TRUE(kl::matmul::wgmma_stream_k_shares_tiles(four_tiles)) << "4 tiles on every SM: shared";
  EXPECT_FALSE(kl::matmul::wgmma_multicast_runs_clusters(three_pairs)) << "3 pairs on every SM's clusters: rung 36";
  {
    const kl::matmul::PersistentGridCap cap(4);
    EXPECT_FALSE(kl::matmul::wgmma_stream_k_shares_tiles(four_tiles)) << "4 tiles on 4 blocks: whole tiles";
    {
      const kl::matmul::PersistentGridCap inner(8);
      EXPECT_TRUE(kl::matmul::wgmma_stream_k_shares_tiles(four_tiles)) << "4 tiles on 8 blocks: shared";
      const Shape halves{4 * 128 - 3, 256 - 5, 1277};  // 4 tiles, 20 k-steps
      ASSERT_TRUE(kl::matmul::wgmma_stream_k_shares_tiles(halves));
      expect_exact_and_reproducible(variant("wgmma_stream_k"), halves, 37, shape_text(halves) + " on 8 blocks");
    }
    EXPECT_FALSE(kl::matmul::wgmma_stream_k_shares_tiles(four_tiles)) << "the inner guard restores 4 blocks";
  }
  {
    const kl::matmul::PersistentGridCap cap(2);
    EXPECT_TRUE(kl::matmul::wgmma_multicast_runs_clusters(three_pairs)) << "3 pairs on one cluster: clusters";
  }
  EXPECT_TRUE(kl::matmul::wgmma_stream_k_shares_tiles(four_tiles)) << "the cap is gone again";
  EXPECT_THROW(kl::matmul::cap_persistent_grid(-1), std::invalid_argument);
}

// Rung 36 deals k-steps out among blocks where tiles are fewer than SMs (kl/matmul_stream_k.hpp);
// the shapes are chosen so that its plan on this GPU shares tiles: 4 tiles among 8 blocks each
// (n = 257: C through scratch), 4 among 33 (more sharers than a tile has units), 32 in aligned
// quarters with C's edges inside the last tiles, and 100 tiles whose shares cross tile edges (k
// off the step too). Small integers: bit-exact whoever stores which part. Random data: within the
// bound, and the same bits on a second run, since the partials are added in block order, not in
// the order they arrived (the perturbation tier reorders the arrivals and runs this test too).
TEST(MatmulTensorCores, TheStreamKRungAddsSharedTilesExactlyAndInOneOrder) {
  const Variant& v = variant("wgmma_stream_k");
  if (!v.supports({128, 256, 64})) GTEST_SKIP() << v.unsupported({128, 256, 64});
  const int sms = kl::device_facts().sm_count;
  const std::vector<Shape> shapes =
      kl::sanitizer_small_mode()
          ? std::vector<Shape>{{129, 257, 2048}}
          : std::vector<Shape>{{129, 257, 2048}, {256, 512, 64 * sms}, {1000, 1000, 3000}, {1277, 2555, 4000}};
  for (const Shape& shape : shapes) {
    const std::string where = shape_text(shape);
    const stream_k::Plan plan = stream_k::plan_for(shape.m, shape.n, shape.k, sms);
    ASSERT_GT(plan.sk_tiles, 0) << where << ": the shape must be dealt out by k-step on this GPU";
    int most_sharers = 0;
    for (int t = 0; t < plan.sk_tiles; ++t) most_sharers = std::max(most_sharers, plan.sharers(t));
    ASSERT_GE(most_sharers, 2) << where << ": no tile is shared";
    expect_exact_and_reproducible(v, shape, 19, where);
  }
}

// Rung 37 runs clusters of two blocks on vertically adjacent tiles where each cluster walks three
// pairs or more (wgmma_multicast_runs_clusters); the test also forces them onto small plans of
// whole tiles (use_clusters_on_every_whole_tile_plan), so they run under the sanitizers too. With
// an odd number of tile rows the last pair's lower tile lies below C: its block loads zeros,
// computes them, stores nothing, and still copies its half of B into its peer. C's sides are off
// the tile and k off the step; at the rule's own shapes (made from this GPU's SM count so that
// each cluster walks three pairs or more, asserted) the shared ring runs on across each cluster's
// pairs. Small integers: bit-exact; random data: within the bound, every element.
void expect_cluster_rung_exact(const Variant& v, const Shape& shape) {
  const std::string where = shape_text(shape);
  ASSERT_TRUE(kl::matmul::wgmma_multicast_runs_clusters(shape)) << where << ": rung 37 must run its clusters here";
  const Inputs exact = make_inputs(shape, Data::small_integers, 29), random = make_inputs(shape, Data::random, 31);
  expect_exact_against(v, shape, exact, expected_elements(exact, shape, InputPrecision::fp16), where);
  const CaseResult rr = run_case(v, shape, random, expected_elements(random, shape, InputPrecision::fp16));
  EXPECT_TRUE(rr.ok()) << where << ": " << rr.describe();
  EXPECT_EQ(rr.checked, static_cast<std::size_t>(shape.m * shape.n));
}

TEST(MatmulTensorCores, TheClusterRungIsExactWherePairsOverhangC) {
  const Variant& v = variant("wgmma_multicast");
  if (!v.supports({128, 256, 64})) GTEST_SKIP() << v.unsupported({128, 256, 64});
  {
    const ClustersOnEveryWholeTilePlan forced(true);
    const std::vector<Shape> small = kl::sanitizer_small_mode()
                                         ? std::vector<Shape>{{129, 257, 65}, {128, 512, 256}}
                                         : std::vector<Shape>{{1, 1, 1}, {129, 257, 65}, {128, 512, 256}, {300, 700, 200},
                                                              {256, 512, 512}};
    for (const Shape& shape : small) expect_cluster_rung_exact(v, shape);
  }
  if (kl::sanitizer_small_mode()) return;  // the rule's shapes: millions of elements
  EXPECT_FALSE(kl::matmul::wgmma_multicast_runs_clusters({256, 512, 512})) << "two pairs: rung 36 by the rule";
  // Pairs enough for three a cluster on this GPU (at most one cluster per two SMs), a column more.
  const std::int64_t pairs = 3 * std::int64_t{kl::device_facts().sm_count} / 2;
  const auto columns_for = [&](std::int64_t pair_rows) { return 256 * ((pairs + pair_rows - 1) / pair_rows + 1); };
  for (const Shape& shape : {Shape{3 * 128 - 5, columns_for(2) - 3, 200}, Shape{16 * 128 - 5, columns_for(8) - 7, 333}})
    expect_cluster_rung_exact(v, shape);
}

// Rung 28 splits k where C's tiles would leave half the SMs or more idle. Each shape that splits on
// this GPU must be bit-exact on small integers, within the bound on random data, and give the same
// bits twice (the partials are added in run order); a shape that does not split here (a GPU of
// few SMs) is reported and left out, but at least one must split or the test fails. The shapes
// include runs of unequal length (777 = 49 tiles of 16, padded) and a C of one element.
TEST(MatmulSplitK, TheRunsAreAddedExactlyAndInOneOrder) {
  const Variant& v = variant("split_k");
  if (!v.supports({64, 128, 16})) GTEST_SKIP() << v.unsupported({64, 128, 16});
  const std::vector<Shape> shapes =
      kl::sanitizer_small_mode()
          ? std::vector<Shape>{{64, 128, 1024}, {100, 200, 777}}
          : std::vector<Shape>{{64, 128, 1024}, {100, 200, 777}, {1, 1, 4096}, {256, 512, 4096}, {300, 70, 20000}};
  int split = 0;
  for (const Shape& shape : shapes) {
    const std::string where = shape_text(shape);
    if (split_k_runs(shape) == 1) {
      std::cout << where << ": not split on this GPU (too few SMs), left out\n";
      continue;
    }
    ++split;
    expect_exact_and_reproducible(v, shape, 23, where);
  }
  EXPECT_GT(split, 0) << "no shape was split on this GPU: nothing of the split path was tested";
}

// The rule as the launch sees this GPU: one tile with a deep k splits on any GPU of two SMs or
// more; 4096^3's 2048 tiles never do.
TEST(MatmulSplitK, TheRuleSplitsOnlyWhereSmsWouldBeIdle) {
  const Variant& v = variant("split_k");
  if (!v.supports({64, 128, 16})) GTEST_SKIP() << v.unsupported({64, 128, 16});
  EXPECT_GT(split_k_runs({64, 128, 4096}), 1);
  EXPECT_EQ(split_k_runs({4096, 4096, 4096}), 1);
  EXPECT_EQ(split_k_runs({64, 128, 64}), 1) << "4 k tiles: too shallow to split";
}

// Rung 29 deals the tiles left after the whole rounds out as shares of their k tiles
// (kl/sgemm_stream_k.hpp). The shapes are made from the plan's slots (the GPU's SMs x 4 blocks of
// the 64 x 128 tile, the H100's occupancy) so that its plan applies: a round and a half (each
// left-over tile shared by two blocks, pieces at both ends of every share), half the slots with
// shares shorter than a tile (tiles of three sharers, shares inside one tile) and sides off the
// tile (and 6 tile columns instead of 8: a tile's row and column come from its row-major id), and
// two rounds and a bit with k off the tile. Under a sanitizer the plan is made for 2 SMs
// (cap_stream_k_sms, 8 slots), whose plans of 14, 20 and 4 tiles have the same features (a round
// and shares across two tiles, two rounds with k off the tile, shares inside a tile) for a fifth
// of the multiply-adds of the one plan of 264 tiles it ran on the whole GPU. Small integers:
// bit-exact however the pieces fall. Random data: within the bound and the same bits twice
// (pieces added in block order). A shape whose plan does not apply here (another occupancy) is
// reported and left out; at least one must apply.
TEST(MatmulStreamK, TheLeftOverTilesAreSharedExactlyAndAddedInOneOrder) {
  const Variant& v = variant("stream_k");
  if (!v.supports({64, 128, 16})) GTEST_SKIP() << v.unsupported({64, 128, 16});
  const bool small = kl::sanitizer_small_mode();
  const StreamKSmCap cap(small ? 2 : 0);
  const std::int64_t slots = stream_k_slots();
  // m for `tiles` tiles of C in rows of `columns` tiles (n = 128 x columns, whole tiles).
  auto rows_for = [](std::int64_t tiles, std::int64_t columns) { return 64 * ((tiles + columns - 1) / columns); };
  const std::vector<Shape> shapes =
      small ? std::vector<Shape>{{64 * 7 - 5, 128 * 2 - 3, 176}, {64 * 5, 128 * 4, 203}, {64 * 4, 128, 208}}
            : std::vector<Shape>{{rows_for(slots + slots / 2, 8), 128 * 8, 512},
                                 {rows_for(slots / 2, 6) - 5, 128 * 6 - 3, 256},
                                 {rows_for(2 * slots + slots / 4, 8), 128 * 8, 1000}};
  int applied = 0;
  for (const Shape& shape : shapes) {
    const std::string where = shape_text(shape);
    const kl::matmul::sgemm_stream_k::Plan plan = stream_k_plan(shape);
    if (plan.blocks == 0) {
      std::cout << where << ": the plan does not apply on this GPU, left out\n";
      continue;
    }
    ++applied;
    int most_sharers = 0;
    for (int j = 0; j < plan.left_over_tiles(); ++j) most_sharers = std::max(most_sharers, plan.sharers_of(j));
    EXPECT_GE(most_sharers, 2) << where << ": no tile is shared";
    expect_exact_and_reproducible(v, shape, 29, where);
  }
  EXPECT_GT(applied, 0) << "no shape made a plan on this GPU: nothing of the shared path was tested";
}

// The cap the sanitizer runs set reaches rung 29's plan: 14 tiles of C are fewer than half the
// whole GPU's slots (no plan: rung 28 runs) and, for 2 SMs (8 slots on an H100 or H200), a whole
// round and 6 tiles shared by 8 blocks; for 1 SM, nested, three rounds and two tiles left over.
// The outer cap comes back when the inner guard goes, and none after the outer.
TEST(MatmulStreamK, AnSmCapReachesThePlan) {
  const Variant& v = variant("stream_k");
  if (!v.supports({64, 128, 16})) GTEST_SKIP() << v.unsupported({64, 128, 16});
  const Shape shape{448, 256, 176};  // 7 x 2 tiles of 64 x 128, 11 k tiles
  EXPECT_EQ(stream_k_plan(shape).blocks, 0) << "14 tiles on the whole GPU";
  {
    const StreamKSmCap two(2);
    const kl::matmul::sgemm_stream_k::Plan plan = stream_k_plan(shape);
    EXPECT_EQ(plan.whole_tiles, 8) << "one round of 2 SMs x 4 blocks";
    EXPECT_EQ(plan.sharers, 8);
    {
      const StreamKSmCap one(1);
      EXPECT_EQ(stream_k_plan(shape).whole_tiles, 12) << "three rounds of 4 blocks";
    }
    EXPECT_EQ(stream_k_plan(shape).whole_tiles, 8) << "the outer cap restored";
  }
  EXPECT_EQ(stream_k_plan(shape).blocks, 0) << "no cap after the guards";
}

// Rung 29's planted twin (its tickets taken relaxed): a memory-model bug the H100 does not show.
// It passes where the rung does (shapes whose tiles are shared), as every sanitizer run of this
// binary shows too; kl.expect.perturb-relaxed-piece-ticket asserts that the perturbation build
// catches it (and the perturb tier leaves this test out). The shape is the finding's own (264
// tiles of 9 k tiles, each shared by two blocks); one data seed under a sanitizer, three without.
TEST(PlantedSgemmStreamK, RelaxedTicketTwinPassesWithoutPerturbation) {
  const Variant& v = variant("relaxed_piece_ticket");
  if (!v.supports({64, 128, 16})) GTEST_SKIP() << v.unsupported({64, 128, 16});
  const Shape shape{2110, 1021, 144};
  const kl::matmul::sgemm_stream_k::Plan plan = stream_k_plan(shape);
  ASSERT_GT(plan.blocks, 0) << shape_text(shape) << ": the finding's shape must share tiles";
  const std::uint64_t seeds = kl::sanitizer_small_mode() ? 1 : 3;
  for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
    const CaseResult r = run_case(v, shape, make_inputs(shape, Data::random, seed));
    EXPECT_TRUE(r.ok()) << "seed " << seed << ": " << r.describe();
  }
}

// Rung 36's planted twin (each consumer's leader stores its last partial element after announcing
// the partial): a memory-model bug the GPU does not show. It passes where the rung does (shapes
// whose tiles are shared), as every sanitizer run of this binary shows too;
// kl.expect.perturb-last-store-after-announce asserts that the perturbation build catches it (and
// the perturb tier leaves this test out). The twins before it stopped passing here once readers
// added each partial as soon as it was announced (stream-K version 13, docs/TENSOR_CORE_LADDER.md):
// a relaxed announcement failed the check in one run of nine on an H200, and every thread's last
// element stored after the warpgroup's barrier failed it in every run under racecheck. This one
// failed once too, beside the tier's other tests (one element of 10^6 at m = 1000, seed 2, an
// H200, 2026-11-29): it runs alone since (kl.matmul.twins_unperturbed, tests/matmul/CMakeLists.txt).
TEST(PlantedMatmulStreamK, LastStoreAfterAnnounceTwinPassesWithoutPerturbation) {
  const Variant& v = variant("last_store_after_announce");
  if (!v.supports({128, 256, 64})) GTEST_SKIP() << v.unsupported({128, 256, 64});
  const int sms = kl::device_facts().sm_count;
  for (const Shape& shape : {Shape{129, 257, 2048}, Shape{1000, 1000, 3000}}) {
    if (kl::sanitizer_small_mode() && shape.m > 129) continue;
    ASSERT_GT(stream_k::plan_for(shape.m, shape.n, shape.k, sms).sk_tiles, 0) << "shared tiles";
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      const CaseResult r = run_case(v, shape, make_inputs(shape, Data::random, seed));
      EXPECT_TRUE(r.ok()) << "m=" << shape.m << " seed " << seed << ": " << r.describe();
    }
  }
}

// Rung 37's planted twin (a ring slot freed in the consumers' own block only): a protocol bug that
// shows where the rung runs its clusters. With the GPU full of clusters (the registered shape: 200
// pairs of tiles) the two blocks of a pair drift apart by more than the ring, and the exactness
// check fails; at two clusters (256 x 512 x 512, forced) it passed every run and all four
// sanitizers on the H100. The test runs data seeds until the check fails (at most eight) and
// then the rung on the same seeds, which must pass. Not under the sanitizers: the check is the
// finding's checker, and a run of this shape takes about 90 s under racecheck.
TEST(PlantedMatmulCluster, LocalReleaseTwinFailsTheCheckWhereTheClustersRun) {
  if (kl::sanitizer_small_mode()) GTEST_SKIP() << "13 M elements a run: the exactness check is the finding's checker, not the tools";
  const Variant& twin = variant("cluster_local_release");
  if (!twin.supports({128, 256, 64})) GTEST_SKIP() << twin.unsupported({128, 256, 64});
  const Shape shape{256, 51200, 512};
  ASSERT_TRUE(kl::matmul::wgmma_multicast_runs_clusters(shape)) << shape_text(shape) << ": the clusters must run here";
  std::uint64_t seeds = 0;
  bool caught = false;
  while (!caught && seeds < 8) {
    const CaseResult r = run_case(twin, shape, make_inputs(shape, Data::random, ++seeds));
    caught = r.mismatch_count > 0;
  }
  EXPECT_TRUE(caught) << "the twin passed the check under " << seeds << " data seeds at " << shape_text(shape);
  for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
    const CaseResult r = run_case(variant("wgmma_multicast"), shape, make_inputs(shape, Data::random, seed));
    EXPECT_TRUE(r.ok()) << "the fix, seed " << seed << ": " << r.describe();
  }
}

// The planted race: every output element is still written (the guards pass), and whether the
// values are wrong depends on warp timing. The test records the mismatch count for the report
// (gtest XML property "mismatches") rather than asserting either outcome. Under a sanitizer (the
// small sizes of every tool; racecheck runs it only as its exclusion proof,
// kl.matmul.unit.racecheck.exclusion_earned, which needs the race reported, not its effect
// counted) one seed and 4 x 4 blocks of 16 k-tiles each: the five seeds at 256^3 took 15 s of
// racecheck's GPU time.
TEST(PlantedMatmulMissingSync, WritesEveryElementAndRecordsWhetherTheRaceCorrupts) {
  const bool small = kl::sanitizer_small_mode();
  const Shape shape = small ? Shape{64, 64, 256} : Shape{256, 256, 256};
  const std::uint64_t seeds = small ? 1 : 5;
  std::size_t total = 0;
  for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
    const CaseResult r = run_case(variant("tiled_missing_second_sync"), shape, make_inputs(shape, Data::random, seed));
    EXPECT_TRUE(r.guards.ok()) << r.guards.describe();
    EXPECT_EQ(r.checked, static_cast<std::size_t>(shape.m * shape.n));
    total += r.mismatch_count;
  }
  RecordProperty("mismatches", static_cast<int>(total));
  std::cout << "tiled_missing_second_sync " << shape_text(shape) << " x " << seeds << " seeds: " << total
            << " elements outside the bound\n";
}

// ---- The FP64 device oracle (kl/matmul_oracle.hpp): every element of every shape checked.

namespace {

struct DeviceInputs {
  kl::DeviceBuffer<float> a, b, bias;
  DeviceInputs(const Inputs& in)
      : a(std::span<const float>(in.a)), b(std::span<const float>(in.b)), bias(std::span<const float>(in.bias)) {}
};

}  // namespace

// On shapes the host oracle takes too (tile edges, a bias, one element, k = 1), each engine of the
// device oracle against the host's: the kernel in k order gives the host's value bit for bit on
// any data; cuBLAS DGEMM (which sums in its own order) gives it within both oracles' FP64
// rounding, exactly on small integers. Either bound is the host's, widened by no more than that
// rounding. Under a sanitizer two shapes do.
TEST(MatmulDeviceOracle, AgreesWithTheHostOracle) {
  const std::vector<Shape> shapes =
      kl::sanitizer_small_mode()
          ? std::vector<Shape>{{7, 5, 1}, {33, 65, 17, true}}
          : std::vector<Shape>{{1, 1, 1}, {7, 5, 1}, {33, 65, 17, true}, {129, 257, 65}, {64, 48, 300, true}};
  for (const OracleEngine engine : {OracleEngine::in_k_order, OracleEngine::cublas_dgemm})
    for (const Shape& shape : shapes)
      for (const Data data : {Data::random, Data::small_integers})
        for (const InputPrecision p : {InputPrecision::fp32, InputPrecision::fp16}) {
          SCOPED_TRACE(::testing::Message() << (engine == OracleEngine::in_k_order ? "in k order" : "cuBLAS DGEMM")
                                            << " m=" << shape.m << " n=" << shape.n << " k=" << shape.k);
          const Inputs in = make_inputs(shape, data, 21);
          const DeviceInputs dev(in);
          const DeviceReference ref =
              device_reference(dev.a.data(), dev.b.data(), dev.bias.data(), shape, p, nullptr, engine);
          const std::vector<double> value = ref.value.download(), bound = ref.bound.download();
          ASSERT_EQ(value.size(), static_cast<std::size_t>(shape.m * shape.n));
          const double g64 = kl::bounds::gamma64(shape.k + 2);
          for (std::int64_t i = 0; i < shape.m; ++i)
            for (std::int64_t j = 0; j < shape.n; ++j) {
              const auto e = static_cast<std::size_t>(i * shape.n + j);
              const Expected host = oracle_element(in, shape, p, i, j);
              const double magnitude = host.bound / element_bound(shape.k + (shape.bias ? 1 : 0), p, 1.0);
              if (data == Data::small_integers || engine == OracleEngine::in_k_order)
                ASSERT_EQ(value[e], host.value) << "at " << e;
              else
                ASSERT_LE(std::fabs(value[e] - host.value), 2 * g64 * magnitude) << "at " << e;
              ASSERT_GE(bound[e], host.bound) << "at " << e;
              ASSERT_LE(bound[e], host.bound * (1 + 1e-8) + 1e-300) << "at " << e;
            }
        }
}

namespace {

// C from variant `name` on seeded device inputs of `shape`, then one 128x128 tile at (tile_row,
// tile_col) moved 1.5 bounds away from the oracle: the device check passes the untouched C and
// rejects the tile, every one of its elements, naming its first element first.
void expect_wrong_tile_rejected(const std::string& name, const Shape& shape, std::int64_t tile_row,
                                std::int64_t tile_col) {
  constexpr std::int64_t tile = 128;
  const Variant& v = variant(name);
  ASSERT_TRUE(v.supports(shape)) << v.unsupported(shape);
  kl::DeviceBuffer<float> a(static_cast<std::size_t>(shape.m * shape.k)), b(static_cast<std::size_t>(shape.k * shape.n));
  kl::DeviceBuffer<float> c(static_cast<std::size_t>(shape.m * shape.n));
  fill_device_inputs(a.data(), a.size(), Data::random, 5);
  fill_device_inputs(b.data(), b.size(), Data::random, 6);
  v.launch({a.data(), b.data(), nullptr, c.data(), shape});
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const DeviceReference ref = device_reference(a.data(), b.data(), nullptr, shape, v.precision);
  const CaseResult clean = compare_on_device(c.data(), ref);
  EXPECT_TRUE(clean.ok()) << name << ": " << clean.describe();
  EXPECT_EQ(clean.checked, static_cast<std::size_t>(shape.m * shape.n));

  // The tile, its oracle and its bounds, 128 rows of 128 elements each.
  const std::size_t first = static_cast<std::size_t>(tile_row * tile * shape.n + tile_col * tile);
  const std::size_t pitch = static_cast<std::size_t>(shape.n);
  std::vector<float> got(tile * tile);
  std::vector<double> want(tile * tile), bound(tile * tile);
  ASSERT_EQ(cudaMemcpy2D(want.data(), tile * sizeof(double), ref.value.data() + first, pitch * sizeof(double),
                         tile * sizeof(double), tile, cudaMemcpyDeviceToHost), cudaSuccess);
  ASSERT_EQ(cudaMemcpy2D(bound.data(), tile * sizeof(double), ref.bound.data() + first, pitch * sizeof(double),
                         tile * sizeof(double), tile, cudaMemcpyDeviceToHost), cudaSuccess);
  for (std::size_t e = 0; e < got.size(); ++e) got[e] = static_cast<float>(want[e] + 1.5 * bound[e] + 1e-3);
  ASSERT_EQ(cudaMemcpy2D(c.data() + first, pitch * sizeof(float), got.data(), tile * sizeof(float), tile * sizeof(float),
                         tile, cudaMemcpyHostToDevice), cudaSuccess);
  const CaseResult wrong = compare_on_device(c.data(), ref);
  EXPECT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.mismatch_count, static_cast<std::size_t>(tile * tile)) << wrong.describe();
  ASSERT_FALSE(wrong.mismatches.empty());
  EXPECT_EQ(wrong.mismatches.front().index, first) << wrong.describe();
  EXPECT_EQ(wrong.mismatches.size(), kl::max_reported_mismatches);
  EXPECT_EQ(wrong.mismatches.back().index, first + kl::max_reported_mismatches - 1) << "lowest indices first";
}

}  // namespace

// The bench's shapes: at 8192^3 (GemmEx, the tensor-core ladder's large shape) a tile in the
// middle of C, and at 4096^3 (the SGEMM ladder's, C from cuBLAS, which every GPU runs) a tile that
// exists only beyond side 2048, where no test shape reaches; under a sanitizer, a small shape with a tile away from its edges.
TEST(MatmulDeviceOracle, OneWrongTileIsRejectedAtTheBenchShapes) {
  if (kl::sanitizer_small_mode()) {
    expect_wrong_tile_rejected("cublas_sgemm", {384, 512, 64}, 2, 3);
    return;
  }
  expect_wrong_tile_rejected("cublas_gemmex_fp16", {8192, 8192, 8192}, 37, 45);
  expect_wrong_tile_rejected("cublas_sgemm", {4096, 4096, 4096}, 20, 27);
}

// An output the variant never wrote (the poison, a NaN) fails the device check.
TEST(MatmulDeviceOracle, AnUnwrittenOutputFails) {
  const Shape shape{96, 80, 72};
  kl::DeviceBuffer<float> a(static_cast<std::size_t>(shape.m * shape.k)), b(static_cast<std::size_t>(shape.k * shape.n));
  fill_device_inputs(a.data(), a.size(), Data::small_integers, 8);
  fill_device_inputs(b.data(), b.size(), Data::small_integers, 9);
  kl::GuardedBuffer<float> c(static_cast<std::size_t>(shape.m * shape.n));
  c.poison();
  const DeviceReference ref = device_reference(a.data(), b.data(), nullptr, shape, InputPrecision::fp32);
  const CaseResult r = compare_on_device(c.data(), ref);
  EXPECT_EQ(r.mismatch_count, static_cast<std::size_t>(shape.m * shape.n));
  EXPECT_TRUE(std::isnan(r.mismatches.front().got));
}
