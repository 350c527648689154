// imatmul family on the GPU: exact int products (seed 004 section 10.2).
#include "kl/matmul.hpp"

#include <gtest/gtest.h>

using namespace kl::imatmul;
using kl::CaseResult;

// [[1 2] [3 4]] x [[5 6] [7 8]] = [[19 22] [43 50]], exactly, for every variant.
TEST(ImatmulSeed, TwoByTwoHandChecked) {
  const Inputs in{{1, 2, 3, 4}, {5, 6, 7, 8}};
  EXPECT_EQ(oracle(in, {2}), (std::vector<std::int64_t>{19, 22, 43, 50}));
  for (const Variant& v : variants()) {
    const CaseResult r = run_case(v, {2}, in);
    EXPECT_TRUE(r.ok()) << v.info.id() << ": " << r.describe();
  }
}

// The seed launches 16x16 blocks over (N+15)/16 blocks: sizes around the tile edges.
TEST(Imatmul, EveryVariantIsExactAroundTileEdges) {
  for (std::int64_t n : {1, 15, 16, 17, 31, 33, 100, 256})
    for (const Variant& v : variants()) {
      const CaseResult r = run_case(v, {n}, make_inputs({n}, 13));
      EXPECT_TRUE(r.ok()) << v.info.id() << " n=" << n << ": " << r.describe();
      EXPECT_EQ(r.checked, static_cast<std::size_t>(n * n));
    }
}

TEST(Imatmul, ZeroSizeIsRejectedNamingVariantAndRule) {
  kl::DeviceBuffer<std::int32_t> buf(4);
  try {
    variant("tiled_16").launch({buf.data(), buf.data(), buf.data(), {0}});
    FAIL() << "n=0 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("imatmul.tiled_16: n must be >= 1", 0), 0u) << e.what();
  }
}
