// Elementwise family on the GPU: the seeds' exact examples, the planted over-launch caught by
// the canaries, and launch validation.
#include "kl/elementwise.hpp"
#include "kl/test_env.hpp"

#include <gtest/gtest.h>

using namespace kl::elementwise;
using kl::CaseResult;

namespace {
CaseResult run(const std::string& name, Shape shape, std::uint64_t seed = 7) {
  const Variant& v = variant(name);
  return run_case(v, shape, make_inputs(v.op, shape, seed));
}
}  // namespace

// Seed 003: add over 1000 elements, 8 blocks of 128 threads, guard `gid >= 1000`.
TEST(ElementwiseSeed, Add1000ElementsWith8BlocksOf128) {
  const CaseResult r = run("add", {1000, 128});
  EXPECT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.checked, 1000u);
}

// Seed 003's add on concrete values: c = a + b element by element.
TEST(ElementwiseSeed, AddOnHandCheckedValues) {
  const Variant& v = variant("add");
  const Inputs in{{1, 2, 3, 4.5f, -1}, {10, 20, 30, 0.25f, 1}};
  const CaseResult r = run_case(v, {5, 128}, in);
  EXPECT_TRUE(r.ok()) << r.describe();
}

// Seed 002: exp_kernel launched as 16 blocks of 256 threads over 4096 elements.
TEST(ElementwiseSeed, Exp4096ElementsWith16BlocksOf256) {
  const CaseResult r = run("exp", {4096, 256});
  EXPECT_TRUE(r.ok()) << r.describe();
}

TEST(Elementwise, EveryCleanVariantHandlesEmptyAndOddSizes) {
  for (const Variant& v : variants()) {
    if (v.info.planted()) continue;
    for (std::int64_t n : {0, 1, 33, 1000, 100003}) {
      const CaseResult r = run_case(v, {n, 96}, make_inputs(v.op, {n, 96}, 3));
      EXPECT_TRUE(r.ok()) << v.info.id() << " n=" << n << ": " << r.describe();
    }
  }
}

TEST(Elementwise, LaunchRejectsBadBlocksNamingVariantAndRule) {
  const Variant& v = variant("add");
  kl::DeviceBuffer<float> buf(16);
  for (int block : {0, 1025}) {
    try {
      v.launch({buf.data(), buf.data(), buf.data(), {16, block}});
      FAIL() << "block " << block << " accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("elementwise.add: block size must be in 1..1024"), std::string::npos)
          << e.what();
    }
  }
}

// Seed 000's add without a guard: 24 threads of the last block write c[1000..1023]. The canary
// check must see those writes, with no tool. (At most 24 words: a thread whose out-of-bounds
// reads happen to fetch canary bits writes them back unchanged.)
TEST(PlantedAddUnguarded, CanaryCheckCatchesTheOverLaunch) {
  const CaseResult r = run("add_unguarded", {1000, 128});
  EXPECT_FALSE(r.ok());
  EXPECT_GE(r.guards.damaged_after, 1u) << r.describe();
  EXPECT_LE(r.guards.damaged_after, 24u) << r.describe();
  EXPECT_EQ(r.guards.first_damaged_after, 0u);
  EXPECT_EQ(r.guards.unwritten, 0u);
  EXPECT_EQ(r.mismatch_count, 0u) << "in-bounds elements are still right: only the guard words reveal the bug";
}

// When n is a multiple of the block there is no over-launch and the seed kernel is correct:
// the bug hides until the shape changes.
TEST(PlantedAddUnguarded, IsCorrectWhenTheBlocksTileExactly) {
  const CaseResult r = run("add_unguarded", {1024, 128});
  EXPECT_TRUE(r.ok()) << r.describe();
}

// The vectorised rungs read and write 16 bytes at a time: every start offset of each buffer
// (0..3 floats past a 16-byte boundary; equal offsets take the float4 path after a head, unequal
// ones the float-by-float loop) at sizes around the vector width and the grid's reach. The largest
// size spans many waves of 256-thread blocks (2930 of them); under a sanitizer 300007 still spans
// 293, more than two per SM, at a tenth of the cost (its four tool runs and the KL_DEVICE_CC twin
// took 54 s of the tier at 3000017).
TEST(ElementwiseVectorized, RightAtEveryOffsetOfEveryBuffer) {
  const std::int64_t largest = kl::sanitizer_small_mode() ? 300007 : 3000017;
  for (const char* name : {"add_vectorized", "exp_vectorized"}) {
    const Variant& v = variant(name);
    for (std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{2}, std::int64_t{3}, std::int64_t{4},
                           std::int64_t{5}, std::int64_t{9}, std::int64_t{1021}, std::int64_t{65537}, largest})
      for (const Offsets o : {Offsets{0, 0, 0}, Offsets{1, 1, 1}, Offsets{2, 2, 2}, Offsets{3, 3, 3},
                              Offsets{0, 1, 2}, Offsets{3, 0, 0}, Offsets{0, 0, 3}}) {
        const CaseResult r = run_case(v, {n, 256}, make_inputs(v.op, {n, 256}, 4), o);
        EXPECT_TRUE(r.ok()) << name << " n=" << n << " offsets " << o.a << "," << o.b << "," << o.out << ": "
                            << r.describe();
      }
  }
}
