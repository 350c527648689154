// Basics family on the GPU: seed 004's exact examples, the planted launch arithmetic caught by
// the poisoned output, and the preconditions of the unguarded and shared-memory kernels.
#include "kl/basics.hpp"

#include "kl/test_env.hpp"

#include <gtest/gtest.h>

using namespace kl::basics;
using kl::CaseResult;

namespace {
CaseResult run(const std::string& name, const Shape& shape, std::uint64_t seed = 5) {
  const Variant& v = variant(name);
  return run_case(v, shape, make_inputs(v.kernel, shape, seed));
}
Shape one_d(int n, int block, std::int64_t threads = 0) { return {1, n, {block, 1}, threads}; }
Shape matrix(int rows, int cols, kl::Dim2 block) { return {rows, cols, block, 0}; }
Shape launch(int blocks, int threads) { return {1, blocks, {threads, 1}, 0}; }
}  // namespace

// Seed: fill_arr launched as one block of N = 1024 threads.
TEST(BasicsSeed, FillArrOneBlockOf1024) {
  const CaseResult r = run("fill_arr", one_d(1024, 1024));
  EXPECT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.checked, 1024u);
}

TEST(Basics, ReferenceAndFillArrAgreeOnOddSizes) {
  for (int n : {0, 1, 33, 1025, 100003}) {
    for (const char* name : {"cpu_oracle", "fill_arr"}) {
      const CaseResult r = run(name, one_d(n, 96));
      EXPECT_TRUE(r.ok()) << name << " n=" << n << ": " << r.describe();
    }
  }
}

// The vectorised fill stores 16 bytes at a time: fill_arr's values at every output offset (0..3
// ints past a 16-byte boundary), at sizes around the vector width and past one grid of the GPU.
TEST(BasicsVectorizedFill, MatchesFillArrAtEveryOutputOffset) {
  const Variant& v = variant("fill_vectorized");
  for (int offset = 0; offset < 4; ++offset)
    for (int n : {0, 1, 2, 3, 4, 5, 8, 1021, 65537, 5000011}) {
      const Shape shape = one_d(n, 256);
      const CaseResult r = run_case(v, shape, make_inputs(v.kernel, shape, 5), offset);
      EXPECT_TRUE(r.ok()) << "offset=" << offset << " n=" << n << ": " << r.describe();
      EXPECT_EQ(r.checked, static_cast<std::size_t>(n));
    }
}

// Regression: the head and the tail (up to 3 elements each) were stored one element per thread,
// and the launch gives block 1 or 2 a grid of 1 or 2 threads up to n = 8, so elements stayed
// unwritten wherever the head or the tail outnumbered the threads. These failed before: at
// offset 0 block 1 with n = 2, 3, 7 and block 2 with n = 3, 7; at offset 1 (a 3-element head)
// block 1 with n = 2..8 and block 2 with n = 3..8; at offset 2 block 1 with n = 2..5 and block 2
// with n = 5; at offset 3 block 1 with n = 3, 4, 8 and block 2 with n = 4, 8. Block 3 never did.
// The pairwise property draws these pairs in every run (BasicsPairwise.EveryCleanKernelOnEveryPairOfEdges).
TEST(BasicsVectorizedFill, SmallestBlocksWithUnalignedHeadAndShortTail) {
  const Variant& v = variant("fill_vectorized");
  for (int block = 1; block <= 3; ++block)
    for (int offset = 0; offset < 4; ++offset)
      for (int n = 1; n <= 9; ++n) {
        const Shape shape = one_d(n, block);
        const CaseResult r = run_case(v, shape, make_inputs(v.kernel, shape, 5), offset);
        EXPECT_TRUE(r.ok()) << "block=" << block << " offset=" << offset << " n=" << n << ": " << r.describe();
        EXPECT_EQ(r.guards.unwritten, 0u) << "block=" << block << " offset=" << offset << " n=" << n;
      }
}

// Seed: N = 200, M = 300 with the fixed launch: every element a[i] = i.
TEST(BasicsSeed, MatrGuarded200By300) {
  const CaseResult r = run("matr", matrix(300, 200, {32, 8}));
  EXPECT_TRUE(r.ok()) << r.describe();
}

// Seed: the same 60000 elements with `blockCount /= 1024 + 1`: (60000+1023)/1025 = 59 blocks of
// 1024 = 60416 threads, and the unguarded kernel writes 416 elements past the end.
TEST(PlantedMatrSeedLaunch, SeedShapeOverLaunchesIntoTheCanaries) {
  const CaseResult r = run("matr_seed_launch", matrix(300, 200, {16, 16}));
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.guards.damaged_after, 416u) << r.describe();
  EXPECT_EQ(r.guards.unwritten, 0u) << r.describe();
}

// 1025 x 1024 = 1049600 elements: (1049600+1023)/1025 = 1024 blocks = 1048576 threads, so the
// last 1024 elements are never written; the poisoned output shows exactly those.
TEST(PlantedMatrSeedLaunch, LargeShapeLeavesElementsUnwritten) {
  const CaseResult r = run("matr_seed_launch", matrix(1025, 1024, {16, 16}));
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.guards.unwritten, 1024u) << r.describe();
  EXPECT_EQ(r.guards.first_unwritten, 1048576u) << r.describe();
  EXPECT_EQ(r.guards.damaged_after, 0u) << r.describe();
  EXPECT_TRUE(run("matr", matrix(1025, 1024, {16, 16})).ok()) << "the fixed launch covers the same shape";
}

// Seed: one M x M block; a grid extends it to shapes no block holds.
TEST(BasicsSeed, SumMatrOneSixteenBySixteenBlock) {
  const CaseResult r = run("sum_matr", matrix(16, 16, {16, 16}));
  EXPECT_TRUE(r.ok()) << r.describe();
}

TEST(Basics, SumMatrAnySizeThroughAGrid) {
  for (const Shape& s : {matrix(1, 1, {16, 16}), matrix(100, 37, {16, 16}), matrix(513, 1031, {32, 4})}) {
    const CaseResult r = run("sum_matr", s);
    EXPECT_TRUE(r.ok()) << s.rows << "x" << s.cols << ": " << r.describe();
  }
}

// Section 6.2: one warp writing 32 consecutive floats, and the stride-2 writer into 63 ints
// (even slots written, odd slots left holding the poison).
TEST(BasicsSeed, CoalescedAndStridedWritesOfOneWarp) {
  const CaseResult c = run("coalesced", one_d(32, 32, 32));
  EXPECT_TRUE(c.ok()) << c.describe();
  const CaseResult s = run("non_coalesced", one_d(63, 32, 32));
  EXPECT_TRUE(s.ok()) << s.describe();
}

TEST(Basics, StridedWriterRefusesABufferShorterThanTwoThreadsMinusOne) {
  const Variant& v = variant("non_coalesced");
  EXPECT_TRUE(v.supports(one_d(63, 32, 32)));
  EXPECT_FALSE(v.supports(one_d(62, 32, 32)));
  EXPECT_FALSE(v.supports(one_d(64, 32, 48))) << "threads must be whole blocks";
  kl::DeviceBuffer<int> buf(62);
  try {
    v.launch({nullptr, nullptr, buf.data(), one_d(62, 32, 32)});
    FAIL() << "a buffer of 62 accepted for 32 threads";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("basics.non_coalesced: n must be >= 2 * threads - 1"), std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(variant("coalesced").supports(one_d(31, 32, 32)));
}

TEST(BasicsSeed, ShMemExDoublesThroughSharedMemory) {
  for (int n : {1, 256, 1000, 65537}) {
    const CaseResult r = run("sh_mem_ex", one_d(n, 256));
    EXPECT_TRUE(r.ok()) << "n=" << n << ": " << r.describe();
  }
  EXPECT_TRUE(run("sh_mem_ex", one_d(1000, 100)).ok()) << "blocks smaller than subArray";
}

TEST(Basics, ShMemExRefusesBlocksLargerThanItsSharedArray) {
  const Variant& v = variant("sh_mem_ex");
  kl::DeviceBuffer<int> buf(512);
  EXPECT_THROW(v.launch({buf.data(), nullptr, buf.data(), one_d(512, 512)}), std::invalid_argument);
}

TEST(BasicsSeed, VectorDotProductOnHandCheckedValues) {
  const Variant& v = variant("vector_dot_product");
  Inputs in;
  in.a3 = {1, 2, 3, -1.5f, 0.25f, 8};
  in.b3 = {4, 5, 6, 2, 4, 0.5f};
  const CaseResult r = run_case(v, one_d(2, 128), in);  // 32 and -3 + 1 + 4 = 2, both exact
  EXPECT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(oracle(Kernel::dot3, one_d(2, 128), in), (std::vector<double>{32.0, 2.0}));
}

TEST(Basics, VectorDotProductWithinItsDerivedBound) {
  for (int n : {1, 33, 100003}) {
    const CaseResult r = run("vector_dot_product", one_d(n, 128));
    EXPECT_TRUE(r.ok()) << "n=" << n << ": " << r.describe();
  }
}

// Section 7.1's `sum(int *counter)` shows no launch: the document's first launch (hello's
// BLOCKS = 2, THREADS = 4), its reduction launch (THREADS = 128), and 65535 full blocks
// contending for one address. Each count must be exactly blocks * threads.
TEST(BasicsSeed, AtomicCounterCountsEveryThread) {
  EXPECT_EQ(oracle(Kernel::counter, launch(2, 4), {}), std::vector<double>{8.0});
  std::vector<Shape> shapes = {launch(2, 4), launch(1000, 128), launch(1, 1)};
  if (!kl::sanitizer_small_mode()) shapes.push_back(launch(65535, 1024));
  for (const Shape& s : shapes) {
    const CaseResult r = run("atomic_counter", s);
    EXPECT_TRUE(r.ok()) << s.cols << " x " << s.block.x << ": " << r.describe();
    EXPECT_EQ(r.checked, 1u);
  }
}

TEST(Basics, AtomicCounterRefusesCountsPastInt) {
  const Variant& v = variant("atomic_counter");
  EXPECT_TRUE(v.supports(launch(2097151, 1024)));
  kl::DeviceBuffer<int> counter(1);
  try {
    v.launch({nullptr, nullptr, counter.data(), launch(2097152, 1024)});
    FAIL() << "2^31 adds accepted for an int counter";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("basics.atomic_counter: blocks * threads must be at most 2^31-1"),
              std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(v.supports(launch(0, 32)));
  EXPECT_FALSE(v.supports(launch(4, 1025)));
}
