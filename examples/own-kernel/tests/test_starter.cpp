// The starter family's own tests, beside the ones the harness derives (kit.hpp): values checked
// by hand, and what exactly the planted guard damages.
#include "generators.hpp"
#include "kit.hpp"
#include "property.hpp"

#include <gtest/gtest.h>

using kl::kit::Matrix;

// z = 2x + y on a 2 x 3 matrix, and [[1 2 3] [4 5 6]] transposed to [[1 4] [2 5] [3 6]].
TEST(StarterExample, SaxpyAndTransposeOnHandCheckedValues) {
  const kl::kit::Data data{2.0f, {{1, 2, 3, 4, 5, 6}, {10, 20, 30, 40, 50, 60}}};
  const kl::kit::Outcome saxpy = kl::kit::run("starter.saxpy", Matrix{2, 3}, data);
  EXPECT_TRUE(saxpy.result.ok()) << saxpy.result.describe();
  EXPECT_EQ(saxpy.out, (std::vector<float>{12, 24, 36, 48, 60, 72}));
  const kl::kit::Outcome transposed = kl::kit::run("starter.transpose", Matrix{2, 3, {2, 2}}, data);
  EXPECT_TRUE(transposed.result.ok()) << transposed.result.describe();
  EXPECT_EQ(transposed.out, (std::vector<float>{1, 4, 2, 5, 3, 6}));
}

// Exactly one canary word (z[n]) is damaged whenever the columns overhang the block, and nothing
// is wrong otherwise: the extra in-bounds writes are the right values. (A Planted suite: left out
// of memcheck, which reports the reads past x and y; kl.expect.memcheck-saxpy-off-by-one.)
KL_PROPERTY(PlantedStarter, CanaryCatchesEveryColumnOverhang, ()) {
  const Matrix m{*kl::gen::side().as("rows"), *kl::gen::side().as("cols"), *kl::gen::block_2d().as("block")};
  RC_PRE(m.rows / m.block.y < 65535);
  const kl::CaseResult r = kl::kit::run("starter.saxpy_off_by_one", m, kl::kit::make_data("starter", m, 3)).result;
  const bool overhang = m.cols % m.block.x != 0;
  RC_ASSERT(r.mismatch_count == 0u);
  RC_ASSERT(r.guards.damaged_after == (overhang ? 1u : 0u));
}
