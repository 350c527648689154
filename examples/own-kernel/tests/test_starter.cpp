// The starter family on the GPU: hand-checked examples, odd shapes, launch validation, and the
// planted off-by-one caught by the canaries.
#include "starter.hpp"

#include <gtest/gtest.h>

using namespace starter;

namespace {
kl::CaseResult run(const std::string& name, const Shape& shape, std::uint64_t seed = 5) {
  return run_case(variant(name), shape, make_inputs(shape, seed));
}
}  // namespace

// z = 2x + y on a 2 x 3 matrix, values checked by hand.
TEST(StarterExample, SaxpyOnHandCheckedValues) {
  const Shape shape{2, 3, {16, 16}};
  const Inputs in{2.0f, {1, 2, 3, 4, 5, 6}, {10, 20, 30, 40, 50, 60}};
  EXPECT_EQ(oracle(Op::saxpy, shape, in), (std::vector<float>{12, 24, 36, 48, 60, 72}));
  const kl::CaseResult r = run_case(variant("saxpy"), shape, in);
  EXPECT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.checked, 6u);
}

// [[1 2 3] [4 5 6]] transposed is [[1 4] [2 5] [3 6]].
TEST(StarterExample, TransposeOnHandCheckedValues) {
  const Shape shape{2, 3, {2, 2}};
  const Inputs in{0.0f, {1, 2, 3, 4, 5, 6}, {0, 0, 0, 0, 0, 0}};
  EXPECT_EQ(oracle(Op::transpose, shape, in), (std::vector<float>{1, 4, 2, 5, 3, 6}));
  const kl::CaseResult r = run_case(variant("transpose"), shape, in);
  EXPECT_TRUE(r.ok()) << r.describe();
}

TEST(Starter, EveryCleanVariantHandlesEmptyOddAndWideShapes) {
  const std::vector<Shape> shapes = {{0, 0, {16, 16}}, {1, 1, {16, 16}}, {100, 37, {16, 16}},
                                     {33, 1025, {32, 8}}, {7, 5, {1, 1}}, {1, 3000, {1024, 1}}};
  for (const Variant& v : variants()) {
    if (v.info.planted()) continue;
    for (const Shape& s : shapes) {
      const kl::CaseResult r = run(v.info.name, s);
      EXPECT_TRUE(r.ok()) << v.info.id() << " " << s.rows << "x" << s.cols << ": " << r.describe();
    }
  }
}

TEST(Starter, LaunchRejectsBadBlocksNamingVariantAndRule) {
  kl::DeviceBuffer<float> buf(16);
  for (const kl::Dim2 block : {kl::Dim2{0, 1}, kl::Dim2{33, 32}}) {
    try {
      variant("transpose").launch({buf.data(), buf.data(), buf.data(), 1.0f, {4, 4, block}});
      FAIL() << "block " << block.x << "x" << block.y << " accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()).find("starter.transpose: block"), 0u) << e.what();
    }
  }
}

// Columns overhang the block (37 = 2 x 16 + 5): the extra column's last-row thread writes z[n],
// the first canary word; nothing else is wrong.
TEST(PlantedSaxpyOffByOne, CanaryCatchesTheWritePastTheEnd) {
  const kl::CaseResult r = run("saxpy_off_by_one", {100, 37, {16, 16}});
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.guards.damaged_after, 1u) << r.describe();
  EXPECT_EQ(r.guards.first_damaged_after, 0u) << r.describe();
  EXPECT_EQ(r.mismatch_count, 0u) << r.describe();
}

// Whole blocks across the columns: no thread runs past them, and the planted kernel is right.
TEST(PlantedSaxpyOffByOne, HarmlessWhenColumnsFillTheBlocks) {
  const kl::CaseResult r = run("saxpy_off_by_one", {100, 48, {16, 16}});
  EXPECT_TRUE(r.ok()) << r.describe();
}
