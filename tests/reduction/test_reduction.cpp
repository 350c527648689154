// Reduction family on the GPU: every clean rung on int (exact) and float (exact on exact-integer
// data, within the rung's depth bound on rounding data), seed-style launches, rejected block
// sizes, and the flawed volatile rung's correct sums.
#include "kl/device_facts.hpp"
#include "kl/reduction.hpp"
#include "kl/guarded_buffer.hpp"
#include "kl/test_env.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>

using namespace kl::reduction;
using kl::CaseResult;

namespace {

CaseResult run(const Variant& v, Shape shape, std::uint64_t seed = 7, FloatData data = FloatData::exact_integers) {
  return run_case(v, shape, make_inputs(shape, seed, data));
}

// The data kinds a dtype has: int one, float both. Under a sanitizer (KL_SANITIZER_SMALL) floats
// run the exact kind only: the tools watch memory and barriers, which the data does not change,
// and a second float pass doubled the racecheck run (58 s on the H100).
std::vector<FloatData> data_kinds(Dtype d) {
  if (d == Dtype::i32 || kl::sanitizer_small_mode()) return {FloatData::exact_integers};
  return {FloatData::exact_integers, FloatData::rounding};
}

// A clean rung that runs on this GPU: rung 10 does not apply below compute capability 9.0 (or
// under KL_DEVICE_CC), which its rule says.
bool clean_here(const Variant& v) {
  return !v.info.has_findings() && runs_here(v);
}

// The smallest block a variant takes: 64 for the last-warp rungs, else 32.
int smallest_block(const Variant& v) { return v.supports({1, 32, Dtype::i32}) ? 32 : 64; }

}  // namespace

// Seed 004 launches with THREADS = 128 and BLOCKS = ceil(n / 128).
TEST(ReductionSeed, EveryCleanRungSumsWithBlocksOf128) {
  for (const Variant& v : variants()) {
    if (!clean_here(v)) continue;
    for (Dtype d : {Dtype::i32, Dtype::f32})
      for (FloatData data : data_kinds(d)) {
        const CaseResult r = run(v, {100000, 128, d}, 7, data);
        EXPECT_TRUE(r.ok()) << v.info.id() << " " << to_string(d) << " " << to_string(data) << ": " << r.describe();
      }
  }
}

// Hand-checked values: 1 + 2 + ... + 1000 = 500500.
TEST(ReductionSeed, SumOfOneToThousand) {
  Inputs in;
  for (int i = 1; i <= 1000; ++i) in.i.push_back(i);
  for (const Variant& v : variants()) {
    if (!clean_here(v)) continue;
    const CaseResult r = run_case(v, {1000, 128, Dtype::i32}, in);
    EXPECT_TRUE(r.ok()) << v.info.id() << ": " << r.describe();
  }
}

// The largest size loops every grid-stride rung several times over its capped grid. Under a
// sanitizer 400009 does the same at blocks of 32 (grid_stride 7 laps of its 1024 blocks,
// warp_shuffle 13, vectorized_single_launch past its 512-block cap, 28 elements a thread) at a
// twelfth of the cost of 5000011 (whose racecheck run was once the workflow's longest test, 79 s;
// 1000003 still made it 53 s). At blocks of 1024 no size below 2^21 loops a grid-stride rung, so
// that block loses nothing. Rung 10's ring, which needs more, has its own sanitizer size in
// BulkCopyRing.*.
inline std::int64_t largest_size() { return kl::sanitizer_small_mode() ? 400009 : 5000011; }

TEST(Reduction, EveryCleanRungHandlesEmptyOddAndMultiGridSizes) {
  const std::int64_t largest = largest_size();
  for (const Variant& v : variants()) {
    if (!clean_here(v)) continue;
    for (std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{33}, std::int64_t{1000}, std::int64_t{65537},
                           largest}) {
      for (int block : {smallest_block(v), 1024}) {
        for (Dtype d : {Dtype::i32, Dtype::f32})
          for (FloatData data : data_kinds(d)) {
            const CaseResult r = run(v, {n, block, d}, 3, data);
            EXPECT_TRUE(r.ok()) << v.info.id() << " n=" << n << " block=" << block << " " << to_string(d) << " "
                                << to_string(data) << ": " << r.describe();
          }
      }
    }
  }
}

TEST(Reduction, LaunchRejectsBadBlocksNamingVariantAndRule) {
  kl::DeviceBuffer<int> in(16), out(1);
  for (const char* name : {"block_reduction", "last_warp_syncwarp", "warp_shuffle"}) {
    const Variant& v = variant(name);
    for (int block : {0, 48, 100, 2048}) {
      try {
        v.launch({in.data(), out.data(), {16, block, Dtype::i32}});
        FAIL() << name << " accepted block " << block;
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(v.info.id() + ": block size must be a power of two in "),
                  std::string::npos)
            << e.what();
      }
    }
  }
}

// Rung 04 as the seed writes it (volatile, no __syncwarp) gives right sums on the H100; its
// defect is the race only racecheck sees (kl.expect.race-reduce-unroll-volatile). Under a sanitizer
// (the small sizes of every tool; racecheck runs it only as its exclusion proof,
// kl.reduction.unit.racecheck.exclusion_earned, which needs the race reported in some block, not
// 2^20 elements' worth of blocks: 12 s of racecheck's GPU time) 2^14 elements, still eight blocks
// or more at every block size.
TEST(FlawedUnrollLastWarp, VolatileSumsAreRightOnThisGpu) {
  const Variant& v = variant("unroll_last_warp");
  const std::int64_t n = kl::sanitizer_small_mode() ? std::int64_t{1} << 14 : std::int64_t{1} << 20;
  for (Dtype d : {Dtype::i32, Dtype::f32})
    for (FloatData data : data_kinds(d))
      for (int block : {64, 256, 1024}) {
        const CaseResult r = run(v, {n, block, d}, 7, data);
        EXPECT_TRUE(r.ok()) << "block=" << block << " " << to_string(d) << " " << to_string(data) << ": "
                            << r.describe();
      }
}

// The vectorised rung reads 16 bytes at a time: every start offset (0..3 elements past a 16-byte
// boundary) with sizes around the vector width, the block's 16 elements per thread and the
// grid's cap, on both dtypes.
TEST(VectorizedSingleLaunch, SumsAtEveryStartOffsetAndSize) {
  const Variant& v = variant("vectorized_single_launch");
  for (int offset = 0; offset < 4; ++offset)
    for (std::int64_t n : {0, 1, 2, 3, 4, 5, 7, 8, 97, 1021, 4095, 4096, 4097, 65535, 65537, 4194305})
      for (Dtype d : {Dtype::i32, Dtype::f32}) {
        const Shape shape{n, 256, d};
        const Inputs in = make_inputs(shape, 5);
        const CaseResult r = run_case(v, shape, in, oracle(d, in), nullptr, offset);
        EXPECT_TRUE(r.ok()) << "offset=" << offset << " n=" << n << " " << to_string(d) << ": " << r.describe();
      }
}

// One launch, no memset: the output starts as poison (a NaN) and must be overwritten, and the
// finish's block counter must be back at 0 after every launch, so a second and third launch on
// the same buffers give the same float sum bit for bit (the partials are added in block order)
// on rounding data, where a different order would round differently.
TEST(VectorizedSingleLaunch, RepeatedLaunchesGiveTheSameSumWithoutZeroingTheOutput) {
  const Variant& v = variant("vectorized_single_launch");
  for (std::int64_t n : {std::int64_t{1000}, std::int64_t{3} << 20}) {
    const Shape shape{n, 128, Dtype::f32};
    const Inputs in = make_inputs(shape, 9, FloatData::rounding);
    kl::DeviceBuffer<float> x{std::span<const float>(in.f)};
    kl::GuardedBuffer<float> out(1);
    std::vector<float> sums;
    for (int launch = 0; launch < 3; ++launch) {
      out.poison();
      v.launch({x.data(), out.data(), shape});
      KL_CUDA_CHECK(cudaDeviceSynchronize());
      sums.push_back(out.download()[0]);
      EXPECT_FALSE(kl::GuardedBuffer<float>::is_poison(sums.back())) << "n=" << n << " launch " << launch;
    }
    EXPECT_EQ(std::bit_cast<std::uint32_t>(sums[0]), std::bit_cast<std::uint32_t>(sums[1])) << "n=" << n;
    EXPECT_EQ(std::bit_cast<std::uint32_t>(sums[0]), std::bit_cast<std::uint32_t>(sums[2])) << "n=" << n;
    const Oracle want = oracle(Dtype::f32, in);
    EXPECT_TRUE(compare_sum(v, shape, sums[0], want).ok()) << "n=" << n << " sum " << sums[0] << " vs " << want.value;
  }
}

// Rung 10 reads small n with 16-byte loads and streams larger n (chunks outnumbering the ring's
// blocks: past ~2.2 M elements on an H100) as whole 32 KiB chunks (8192 elements from the first
// 16-byte boundary) through its ring, the rest read directly: every start offset, sizes around
// the vector width and a chunk on the direct path, sizes on the ring path whose rest is none,
// one element or almost a chunk, and one at which every block refills each of its ring's stages
// many times (the phases wrap), on both dtypes and the smallest and largest blocks. Each input
// is drawn once for all offsets and blocks. Under a sanitizer the ring runs one size at one
// offset (its accesses do not depend on the rest's length; 64 ring runs of 4 M elements made
// racecheck the workflow's longest test).
TEST(BulkCopyRing, SumsAtEveryStartOffsetChunkEdgeAndRingWrap) {
  const Variant& v = variant("bulk_copy_ring");
  if (!runs_here(v)) GTEST_SKIP() << v.unsupported({1, 256, Dtype::i32});
  const bool sanitizer = kl::sanitizer_small_mode();
  std::vector<std::int64_t> sizes = {0, 1, 3, 4, 8191, 8192, 8193, 65536, 1048579};
  const std::int64_t ring_sizes_from = (1 << 22) - 1;
  if (sanitizer) {
    sizes.push_back((1 << 22) + 8191);
  } else {
    for (std::int64_t past_last_chunk : {-1, 0, 1, 8191}) sizes.push_back((1 << 22) + past_last_chunk);
    sizes.push_back((std::int64_t{1} << 25) + 7);
  }
  for (std::int64_t n : sizes)
    for (Dtype d : {Dtype::i32, Dtype::f32}) {
      const Inputs in = make_inputs({n, 256, d}, 11);
      const Oracle want = oracle(d, in);
      for (int offset = 0; offset < 4; ++offset) {
        if (sanitizer && n >= ring_sizes_from && offset != 1) continue;
        for (int block : {32, 1024}) {
          const CaseResult r = run_case(v, {n, block, d}, in, want, nullptr, offset);
          EXPECT_TRUE(r.ok()) << "offset=" << offset << " n=" << n << " block=" << block << " " << to_string(d)
                              << ": " << r.describe();
        }
      }
    }
}

// cap_ring_grid reaches rung 10's plan: five chunks stream through the ring of a grid capped at two
// blocks (every block then takes two or three), never through the GPU's whole grid; the cap goes
// with its guard, and a negative one is refused. The property BulkCopyRingIsExactRoundItsRing sums
// on capped grids.
TEST(BulkCopyRing, AGridCapReachesThePlan) {
  const Variant& v = variant("bulk_copy_ring");
  if (!runs_here(v)) GTEST_SKIP() << v.unsupported({1, 256, Dtype::i32});
  const Shape five_chunks{5 * 8192, 256, Dtype::f32};
  EXPECT_FALSE(bulk_copy_ring_streams(five_chunks)) << "five chunks on the whole GPU: the direct grid";
  {
    const RingGridCap two_blocks(2);
    EXPECT_TRUE(bulk_copy_ring_streams(five_chunks));
    EXPECT_EQ(bulk_copy_ring_blocks(five_chunks), 2);
    const Inputs in = make_inputs(five_chunks, 23);
    const CaseResult r = run_case(v, five_chunks, in, oracle(five_chunks.dtype, in), nullptr, 1);
    EXPECT_TRUE(r.ok()) << r.describe();
  }
  EXPECT_FALSE(bulk_copy_ring_streams(five_chunks)) << "the cap is gone again";
  EXPECT_THROW(cap_ring_grid(-1), std::invalid_argument);
}

// No memset before the launch: block 0 zeroes the output and a launch-numbered flag holds every
// other block's atomicAdd until the zero has landed. The output starts as poison (a NaN) at each
// of several launches; every sum must be exact on exact-integer data, where one add that landed
// before the zero (lost) or a zero that came twice would show. Both grids (the ring's from ~2.2 M
// elements) share the finish; sanitizers watch it on the direct grid only.
TEST(BulkCopyRing, EveryLaunchZeroesItsOwnOutputBeforeAnyAdd) {
  const Variant& v = variant("bulk_copy_ring");
  if (!runs_here(v)) GTEST_SKIP() << v.unsupported({1, 256, Dtype::i32});
  std::vector<std::int64_t> sizes = {5000, std::int64_t{1} << 16};
  if (!kl::sanitizer_small_mode()) sizes.push_back((std::int64_t{3} << 20) + 1);
  for (std::int64_t n : sizes) {
    const Shape shape{n, 256, Dtype::f32};
    const Inputs in = make_inputs(shape, 13);
    const Oracle want = oracle(Dtype::f32, in);
    ASSERT_TRUE(want.exact_in_fp32);
    kl::DeviceBuffer<float> x{std::span<const float>(in.f)};
    kl::GuardedBuffer<float> out(1);
    for (int launch = 0; launch < 5; ++launch) {
      out.poison();
      v.launch({x.data(), out.data(), shape});
      KL_CUDA_CHECK(cudaDeviceSynchronize());
      const float sum = out.download()[0];
      EXPECT_EQ(sum, static_cast<float>(want.value)) << "n=" << n << " launch " << launch;
    }
  }
}

// The rung applies exactly where cp.async.bulk runs, so on a compute capability 9.0 GPU (the
// lab's reference H100) a rule that said otherwise would skip it silently.
TEST(BulkCopyRing, AppliesOnComputeCapability9) {
  const std::string why = variant("bulk_copy_ring").unsupported({1000, 256, Dtype::f32});
  if (kl::device_facts().cc_major >= 9)
    EXPECT_EQ(why, "");
  else
    EXPECT_NE(why.find("does not apply"), std::string::npos) << why;
}

// The planted cross-block twins of rungs 09 and 10 (a relaxed ticket, adds that do not wait for
// the zero, a relaxed ready flag) pass what the clean rungs pass: the same sizes, blocks, dtypes
// and data, several launches each with the output poisoned first, here and under all four
// sanitizers (kl.reduction.unit.<tool>). Their ordering bugs show only in the perturbation build
// (kl.expect.perturb-*); a twin that does not apply on this GPU is skipped by asking it.
TEST(PlantedCrossBlockOrder, TwinsPassEveryCleanRungCheckWithoutPerturbation) {
  const std::int64_t largest = largest_size();
  for (const char* name : {"relaxed_ticket", "add_before_zero", "relaxed_zero_flag"}) {
    const Variant& v = variant(name);
    if (const std::string rule = v.unsupported({1, 32, Dtype::i32}); !rule.empty()) {
      EXPECT_NE(rule.find("does not apply"), std::string::npos) << name << ": " << rule;
      continue;
    }
    for (std::int64_t n : {std::int64_t{1}, std::int64_t{33}, std::int64_t{65537}, largest})
      for (int block : {32, 1024})
        for (Dtype d : {Dtype::i32, Dtype::f32})
          for (int launch = 0; launch < 3; ++launch) {
            const CaseResult r = run(v, {n, block, d}, 3 + static_cast<std::uint64_t>(launch));
            EXPECT_TRUE(r.ok()) << v.info.id() << " n=" << n << " block=" << block << " " << to_string(d)
                                << " launch " << launch << ": " << r.describe();
          }
  }
}
